// FitnessResultRecorded | FitnessResultCorrected | FitnessResultDeleted -> one fitness_results row.
// Pure. The row keeps the event's own version (never a delivery counter) so ReplacingMergeTree and
// argMax pick the business-latest state whatever order the versions arrive in. Checks reject events
// that could not be stored faithfully (a result needing rounding, ids beyond safe integers, times
// ClickHouse cannot hold) or that contradict themselves (envelope vs data).
import { z } from 'zod';
import type { EventEnvelope } from '../../publication/event';
import { canonicalDecimal } from '../../shared/decimal';
import { compiledCheck } from '../decode/compiledCheck';
import { describeIssues, rejected, validEventSchema, type Decoded } from '../decode/envelope';
import type { FitnessRow, KafkaPosition } from '../rows';
import { isoToMs } from '../time';

export const FITNESS_EVENT_TYPES: ReadonlySet<string> = new Set([
  'FitnessResultRecorded',
  'FitnessResultCorrected',
  'FitnessResultDeleted',
]);
export const FITNESS_RESULT_SCALE = 3;

const id = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const dataSchema = z.object({
  dataId: id.min(1),
  detectId: id,
  userId: id,
  projectId: id,
  schoolId: id,
  grade: z.number().int().min(0).max(65535),
  result: z.string().max(40),
  unit: z.string().min(1).max(32),
  version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  isDeleted: z.boolean(),
  createdAt: z.string().max(64),
  updatedAt: z.string().max(64),
});

type FitnessData = z.output<typeof dataSchema>;

/** True for a JSON value that passes every schema check a fitness event gets (one compiled pass). */
export const isValidFitnessEvent = compiledCheck(validEventSchema('fitness', FITNESS_EVENT_TYPES, dataSchema));

/** The stepwise mapping of a decoded envelope: names the first thing wrong with it. */
export function mapFitnessEvent(e: EventEnvelope, at: KafkaPosition, ingestedAtMs: number): Decoded<FitnessRow> {
  if (!FITNESS_EVENT_TYPES.has(e.type)) return rejected('UNKNOWN_EVENT_TYPE', `fitness event type ${e.type.slice(0, 60)} is unknown`);
  const parsed = dataSchema.safeParse(e.data);
  if (!parsed.success)
    return rejected('INVALID_DATA', describeIssues(parsed.error.issues.map((i) => ({ ...i, path: ['data', ...i.path] }))));
  return fitnessRow(e, parsed.data, at, ingestedAtMs);
}

/** The mapping of an event `isValidFitnessEvent` accepted: only the checks no schema expresses remain. */
export function mapValidFitnessEvent(
  e: EventEnvelope & { data: FitnessData },
  at: KafkaPosition,
  ingestedAtMs: number,
): Decoded<FitnessRow> {
  return fitnessRow(e, e.data, at, ingestedAtMs);
}

function fitnessRow(e: EventEnvelope, d: FitnessData, at: KafkaPosition, ingestedAtMs: number): Decoded<FitnessRow> {
  const result = canonicalDecimal(d.result, FITNESS_RESULT_SCALE);
  if (result === undefined) return rejected('INVALID_DATA', 'data.result (not a decimal with at most 3 fraction digits)');
  const createdAtMs = isoToMs(d.createdAt);
  const sourceCommitMs = isoToMs(d.updatedAt);
  if (createdAtMs === undefined) return rejected('INVALID_DATA', 'data.createdAt (not an ISO-8601 time ClickHouse can store)');
  if (sourceCommitMs === undefined) return rejected('INVALID_DATA', 'data.updatedAt (not an ISO-8601 time ClickHouse can store)');
  const mismatches = [
    String(d.dataId) !== e.aggregateId && 'aggregateId != data.dataId',
    d.version !== e.version && 'version != data.version',
    d.isDeleted !== e.isDeleted && 'isDeleted != data.isDeleted',
    (e.type === 'FitnessResultDeleted') !== d.isDeleted && `${e.type} with isDeleted ${d.isDeleted}`,
  ].filter(Boolean);
  if (mismatches.length) return rejected('INCONSISTENT_EVENT', mismatches.join(', '));
  return {
    ok: true,
    value: {
      dataId: d.dataId,
      detectId: d.detectId,
      userId: d.userId,
      projectId: d.projectId,
      schoolId: d.schoolId,
      grade: d.grade,
      result,
      unit: d.unit,
      version: d.version,
      isDeleted: d.isDeleted,
      createdAtMs,
      sourceCommitMs,
      ingestedAtMs,
      eventId: e.eventId,
      shard: e.shard,
      ...at,
    },
  };
}
