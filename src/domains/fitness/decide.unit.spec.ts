// Pure fitness decisions: validation, canonical decimals, versions, tombstones, routing.
import { TidemarkError } from '../../shared/errors';
import { canonicalResult, parseResult } from './decimal';
import { decideCorrection, decideDeletion, decideRecord, parseDataId, validateRecord } from './decide';
import { fitnessEventId } from './events';
import { defaultProjectCatalog as catalog } from './projects';
import { composeDataId, fnv1a32, shardForUser, shardOfDataId } from './sharding';
import type { RecordFitnessResult } from './types';

const now = new Date('2026-03-01T08:00:00.123Z');
const later = new Date('2026-03-01T09:30:00.456Z');
const jump: RecordFitnessResult = {
  kind: 'record',
  detectId: 10001,
  userId: 4,
  projectId: 3,
  schoolId: 77,
  grade: 5,
  result: '2.21',
  unit: 'm',
};

function failure(f: () => unknown): { code: string; field?: unknown } {
  try {
    f();
  } catch (e) {
    if (e instanceof TidemarkError) return { code: e.code, field: e.details.field };
    throw e;
  }
  throw new Error('expected an error');
}

describe('exact results', () => {
  it('canonicalises to exactly 3 decimals so 2.31 and 2.310 are equal', () => {
    expect(canonicalResult('2.31')).toBe('2.310');
    expect(canonicalResult('2.310')).toBe('2.310');
    expect(canonicalResult('0002.3100')).toBe('2.310');
    expect(canonicalResult('231')).toBe('231.000');
    expect(parseResult('-0')).toMatchObject({ ok: true, canonical: '0.000' });
  });
  it('refuses negatives, more than 3 decimals, exponents and absurd magnitudes', () => {
    expect(parseResult('-0.001')).toEqual({ ok: false, problem: 'negative' });
    expect(parseResult('2.2105')).toEqual({ ok: false, problem: 'scale' });
    expect(parseResult('1e3')).toEqual({ ok: false, problem: 'format' });
    expect(parseResult('12345678')).toEqual({ ok: false, problem: 'too-large' });
  });
});

describe('validation', () => {
  it('accepts a plausible standing long jump in m or cm', () => {
    expect(validateRecord(jump, catalog).result).toBe('2.210');
    expect(validateRecord({ ...jump, result: '231.5', unit: 'cm' }, catalog).result).toBe('231.500');
  });
  it.each([
    [{ unit: 'furlong' }, 'unit'],
    [{ unit: '' }, 'unit'],
    [{ unit: 'x'.repeat(17) }, 'unit'],
    [{ result: '-1' }, 'result'],
    [{ result: '4.001' }, 'result'],
    [{ result: '0.05' }, 'result'],
    [{ result: '2.2101' }, 'result'],
    [{ result: 'NaN' }, 'result'],
    [{ result: '1'.repeat(40) }, 'result'],
    [{ result: '231.55', unit: 'cm' }, 'result'],
    [{ projectId: 999 }, 'projectId'],
    [{ userId: 0 }, 'userId'],
    [{ detectId: 2 ** 31 }, 'detectId'],
    [{ schoolId: 1.5 }, 'schoolId'],
    [{ grade: 13 }, 'grade'],
    [{ idempotencyKey: '' }, 'idempotencyKey'],
    [{ idempotencyKey: 'has space' }, 'idempotencyKey'],
    [{ idempotencyKey: 'k'.repeat(129) }, 'idempotencyKey'],
  ])('rejects %j on field %s', (over, field) => {
    expect(failure(() => validateRecord({ ...jump, ...over }, catalog))).toEqual({ code: 'VALIDATION_FAILED', field });
  });
  it('allows only whole numbers for counts', () => {
    expect(failure(() => validateRecord({ ...jump, projectId: 4, unit: 'count', result: '120.5' }, catalog))).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'result',
    });
    expect(validateRecord({ ...jump, projectId: 4, unit: 'count', result: '120' }, catalog).result).toBe('120.000');
  });
  it('parses a dataId strictly', () => {
    expect(parseDataId('900001')).toBe(900001);
    for (const bad of ['0', '-1', '1.5', '1e6', ' 1', '9007199254740993', 'abc'])
      expect(failure(() => parseDataId(bad))).toEqual({ code: 'VALIDATION_FAILED', field: 'dataId' });
  });
});

describe('decisions', () => {
  const recorded = decideRecord(jump, { catalog, now, dataId: 900001, shard: 1, changedBy: 'teacher-1', schemaVersion: 1 });

  it('records version 1 with a full snapshot event', () => {
    expect(recorded.state).toMatchObject({
      dataId: 900001,
      version: 1,
      result: '2.210',
      isDeleted: false,
      createdAt: now,
      updatedAt: now,
      shard: 1,
    });
    expect(recorded.event).toMatchObject({
      eventId: 'fitness-result-900001-v1',
      type: 'FitnessResultRecorded',
      aggregateId: '900001',
      version: 1,
      schemaVersion: 1,
      shard: 1,
      occurredAt: now,
    });
    expect(recorded.event.data).toEqual({
      dataId: 900001,
      detectId: 10001,
      userId: 4,
      projectId: 3,
      schoolId: 77,
      grade: 5,
      result: '2.210',
      unit: 'm',
      version: 1,
      isDeleted: false,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    });
  });

  it('corrects to the next version, keeping the identity fields', () => {
    const c = decideCorrection(
      recorded.state,
      { kind: 'correct', dataId: 900001, expectedVersion: 1, result: '2.31', unit: 'm' },
      { catalog, now: later, changedBy: 'teacher-1', schemaVersion: 1 },
    );
    expect(c.state).toMatchObject({
      version: 2,
      result: '2.310',
      detectId: 10001,
      userId: 4,
      projectId: 3,
      createdAt: now,
      updatedAt: later,
    });
    expect(c.event).toMatchObject({ eventId: fitnessEventId(900001, 2), type: 'FitnessResultCorrected' });
  });

  it('refuses a stale version with the current one, and unknown or deleted results', () => {
    const err = (() => {
      try {
        decideCorrection(
          { ...recorded.state, version: 3 },
          { kind: 'correct', dataId: 900001, expectedVersion: 2, result: '2.31', unit: 'm' },
          { catalog, now, changedBy: 'teacher-1', schemaVersion: 1 },
        );
      } catch (e) {
        return e as TidemarkError;
      }
    })();
    expect(err).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 3, expectedVersion: 2 } });
    expect(
      failure(() =>
        decideCorrection(
          undefined,
          { kind: 'correct', dataId: 1, expectedVersion: 1, result: '2', unit: 'm' },
          { catalog, now, changedBy: 't', schemaVersion: 1 },
        ),
      ),
    ).toMatchObject({ code: 'NOT_FOUND' });
    expect(
      failure(() =>
        decideDeletion(
          { ...recorded.state, isDeleted: true, version: 2 },
          { kind: 'delete', dataId: 900001, expectedVersion: 2 },
          { now, changedBy: 't', schemaVersion: 1 },
        ),
      ),
    ).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('deletes with a tombstone version that carries the full last state', () => {
    const d = decideDeletion(
      recorded.state,
      { kind: 'delete', dataId: 900001, expectedVersion: 1 },
      { now: later, changedBy: 't', schemaVersion: 1 },
    );
    expect(d.state).toMatchObject({ version: 2, isDeleted: true, result: '2.210', unit: 'm' });
    expect(d.event).toMatchObject({
      type: 'FitnessResultDeleted',
      isDeleted: true,
      eventId: 'fitness-result-900001-v2',
      data: { isDeleted: true, version: 2 },
    });
  });

  it('never moves a version back in time when the shard clock steps back', () => {
    const c = decideCorrection(
      { ...recorded.state, updatedAt: later },
      { kind: 'correct', dataId: 900001, expectedVersion: 1, result: '2.31', unit: 'm' },
      { catalog, now, changedBy: 't', schemaVersion: 1 },
    );
    expect(c.state.updatedAt).toEqual(later);
  });
});

describe('sharding', () => {
  it('routes a student to a stable shard and encodes the shard in the dataId', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(shardForUser(4, 2)).toBe(fnv1a32('4') % 2);
    expect(shardForUser(4, 2)).toBe(shardForUser(4, 2));
    const counts = [0, 0, 0, 0];
    for (let u = 1; u <= 4000; u++) counts[shardForUser(u, 4)]!++;
    for (const c of counts) expect(c).toBeGreaterThan(800);
    expect(composeDataId(9000, 1)).toBe(900001);
    expect(shardOfDataId(900001)).toBe(1);
    expect(() => composeDataId(1, 100)).toThrow(RangeError);
    expect(() => shardForUser(1, 0)).toThrow(RangeError);
  });
});
