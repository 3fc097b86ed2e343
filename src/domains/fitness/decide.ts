// Pure decision code: validates a command against the current state and the project catalogue and
// decides the next state and its event. No I/O: the shard's clock (`now`) and the allocated dataId
// come in from the caller, so the same inputs always give the same decision. Who may write is the
// service's question (src/domains/fitness/policy.ts); who did (changedBy) comes in with the context.
import type { DomainEvent } from '../../publication/event';
import { NotFoundError, TidemarkError, ValidationError, VersionConflictError } from '../../shared/errors';
import { parseResult, type DecimalProblem } from './decimal';
import { fitnessEvent, type FitnessEventData } from './events';
import type { ProjectCatalog, UnitRule } from './projects';
import type { CorrectFitnessResult, DeleteFitnessResult, FitnessResultState, RecordFitnessResult } from './types';

export const MAX_ID = 2147483647;
export const MAX_GRADE = 12;
export const MAX_UNIT_LENGTH = 16;
export const MAX_RESULT_LENGTH = 32;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]+$/;
/** A measuredAt may run ahead of the shard clock by this much (client clocks drift), never more. */
export const MEASURED_AT_MAX_AHEAD_MS = 60_000;
/** The earliest measuredAt accepted: a day after the epoch, so no time zone shift makes it negative. */
export const MEASURED_AT_MIN = new Date(Date.UTC(1970, 0, 2));

export interface Decision {
  state: FitnessResultState;
  event: DomainEvent<FitnessEventData>;
}

function positiveId(field: string, v: number): void {
  if (!Number.isInteger(v) || v < 1 || v > MAX_ID) throw new ValidationError(field, `${field} must be an integer between 1 and ${MAX_ID}`);
}

/** A dataId as the client sent it (GraphQL ID): a positive safe integer. */
export function parseDataId(raw: string | number): number {
  const s = String(raw);
  if (s.length > 16 || !/^[1-9][0-9]*$/.test(s) || !Number.isSafeInteger(Number(s)))
    throw new ValidationError('dataId', 'dataId must be a positive integer');
  return Number(s);
}

export function parseExpectedVersion(v: number): number {
  if (!Number.isInteger(v) || v < 1 || v > MAX_ID)
    throw new ValidationError('expectedVersion', 'expectedVersion must be a positive integer');
  return v;
}

const PROBLEM_TEXT: Record<DecimalProblem, string> = {
  format: 'result must be a plain decimal number, e.g. "2.31"',
  negative: 'result must not be negative',
  scale: 'result has more than 3 decimals',
  'too-large': 'result is far outside any plausible range',
};

/** Checks unit and result against the project's rules; returns the canonical 3-decimal result. */
export function validateMeasurement(catalog: ProjectCatalog, projectId: number, result: string, unit: string): string {
  const project = catalog.project(projectId);
  if (!project) throw new ValidationError('projectId', `unknown projectId ${projectId}`);
  if (typeof unit !== 'string' || unit.length === 0 || unit.length > MAX_UNIT_LENGTH)
    throw new ValidationError('unit', `unit must be 1 to ${MAX_UNIT_LENGTH} characters`);
  const rule: UnitRule | undefined = project.units.find((u) => u.unit === unit);
  if (!rule)
    throw new ValidationError('unit', `unit is not allowed for ${project.name}`, { allowedUnits: project.units.map((u) => u.unit) });
  if (typeof result !== 'string' || result.length === 0 || result.length > MAX_RESULT_LENGTH)
    throw new ValidationError('result', PROBLEM_TEXT.format);
  const parsed = parseResult(result.trim());
  if (!parsed.ok) throw new ValidationError('result', PROBLEM_TEXT[parsed.problem]);
  const scaleUnit = 10n ** BigInt(3 - rule.scale);
  if (parsed.thousandths % scaleUnit !== 0n) throw new ValidationError('result', `result allows at most ${rule.scale} decimals in ${unit}`);
  const min = parseResult(rule.min);
  const max = parseResult(rule.max);
  if (min.ok && max.ok && (parsed.thousandths < min.thousandths || parsed.thousandths > max.thousandths))
    throw new ValidationError('result', `result must be between ${rule.min} and ${rule.max} ${unit} for ${project.name}`, {
      min: rule.min,
      max: rule.max,
    });
  return parsed.canonical;
}

/**
 * When the test was taken, checked against the shard clock (`now`): not more than a minute ahead of
 * it, not before 1970-01-02. Undefined stays undefined (not said).
 */
export function checkMeasuredAt(measuredAt: Date | undefined, now: Date): Date | undefined {
  if (measuredAt === undefined) return undefined;
  if (!(measuredAt instanceof Date) || !Number.isFinite(measuredAt.getTime()))
    throw new ValidationError('measuredAt', 'measuredAt must be an ISO-8601 date-time');
  if (measuredAt.getTime() < MEASURED_AT_MIN.getTime())
    throw new ValidationError('measuredAt', `measuredAt must not be before ${MEASURED_AT_MIN.toISOString()}`);
  if (measuredAt.getTime() > now.getTime() + MEASURED_AT_MAX_AHEAD_MS)
    throw new ValidationError('measuredAt', 'measuredAt must not be in the future');
  return measuredAt;
}

/** Validates a record command without touching any store; returns it with a canonical result. */
export function validateRecord(cmd: RecordFitnessResult, catalog: ProjectCatalog): RecordFitnessResult {
  positiveId('detectId', cmd.detectId);
  positiveId('userId', cmd.userId);
  positiveId('projectId', cmd.projectId);
  positiveId('schoolId', cmd.schoolId);
  if (!Number.isInteger(cmd.grade) || cmd.grade < 1 || cmd.grade > MAX_GRADE)
    throw new ValidationError('grade', `grade must be between 1 and ${MAX_GRADE}`);
  if (cmd.idempotencyKey !== undefined) {
    const k = cmd.idempotencyKey;
    if (typeof k !== 'string' || k.length === 0 || k.length > MAX_IDEMPOTENCY_KEY_LENGTH || !IDEMPOTENCY_KEY.test(k))
      throw new ValidationError(
        'idempotencyKey',
        `idempotencyKey must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters of A-Z a-z 0-9 . _ : -`,
      );
  }
  return { ...cmd, result: validateMeasurement(catalog, cmd.projectId, cmd.result, cmd.unit) };
}

export function decideRecord(
  cmd: RecordFitnessResult,
  ctx: { catalog: ProjectCatalog; now: Date; dataId: number; shard: number; changedBy: string; schemaVersion: number },
): Decision {
  const valid = validateRecord(cmd, ctx.catalog);
  const state: FitnessResultState = {
    dataId: ctx.dataId,
    detectId: valid.detectId,
    userId: valid.userId,
    projectId: valid.projectId,
    schoolId: valid.schoolId,
    grade: valid.grade,
    result: valid.result,
    unit: valid.unit,
    version: 1,
    isDeleted: false,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    shard: ctx.shard,
    changedBy: ctx.changedBy,
    measuredAt: checkMeasuredAt(valid.measuredAt, ctx.now) ?? null,
  };
  return { state, event: fitnessEvent('FitnessResultRecorded', state, ctx.schemaVersion) };
}

/** The current state must exist, be live, and be at the version the client saw. */
function requireCurrent(current: FitnessResultState | undefined, dataId: number, expectedVersion: number): FitnessResultState {
  if (!current) throw new NotFoundError('fitness result', dataId);
  if (current.isDeleted)
    throw new TidemarkError('NOT_FOUND', `fitness result ${dataId} was deleted`, {
      details: { id: String(dataId), deleted: true, currentVersion: current.version },
    });
  if (current.version !== expectedVersion) throw new VersionConflictError(dataId, expectedVersion, current.version);
  return current;
}

export function decideCorrection(
  current: FitnessResultState | undefined,
  cmd: CorrectFitnessResult,
  ctx: { catalog: ProjectCatalog; now: Date; changedBy: string; schemaVersion: number },
): Decision {
  const cur = requireCurrent(current, cmd.dataId, cmd.expectedVersion);
  const result = validateMeasurement(ctx.catalog, cur.projectId, cmd.result, cmd.unit);
  // A student who changed school: the result moves with it (validated like a recorded schoolId).
  if (cmd.schoolId !== undefined) positiveId('schoolId', cmd.schoolId);
  const state: FitnessResultState = {
    ...cur,
    schoolId: cmd.schoolId ?? cur.schoolId,
    result,
    unit: cmd.unit,
    version: cur.version + 1,
    updatedAt: laterOf(ctx.now, cur.updatedAt),
    changedBy: ctx.changedBy,
    // A correction that does not say when keeps what the previous version said.
    measuredAt: checkMeasuredAt(cmd.measuredAt, ctx.now) ?? cur.measuredAt ?? null,
  };
  return { state, event: fitnessEvent('FitnessResultCorrected', state, ctx.schemaVersion) };
}

export function decideDeletion(
  current: FitnessResultState | undefined,
  cmd: DeleteFitnessResult,
  ctx: { now: Date; changedBy: string; schemaVersion: number },
): Decision {
  const cur = requireCurrent(current, cmd.dataId, cmd.expectedVersion);
  const state: FitnessResultState = {
    ...cur,
    isDeleted: true,
    version: cur.version + 1,
    updatedAt: laterOf(ctx.now, cur.updatedAt),
    changedBy: ctx.changedBy,
  };
  return { state, event: fitnessEvent('FitnessResultDeleted', state, ctx.schemaVersion) };
}

/** A version's time never goes backwards, even if the shard's clock stepped back. */
function laterOf(a: Date, b: Date): Date {
  return a.getTime() >= b.getTime() ? a : b;
}
