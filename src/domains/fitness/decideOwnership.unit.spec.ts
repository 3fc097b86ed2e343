// Pure fitness decisions about who wrote a version and where a result belongs: every version carries
// its author (changedBy) but no event does, and a correction may move a result to another school.
import { TidemarkError } from '../../shared/errors';
import { decideCorrection, decideDeletion, decideRecord } from './decide';
import { defaultProjectCatalog as catalog } from './projects';
import type { CorrectFitnessResult } from './types';

const now = new Date('2026-03-01T08:00:00.123Z');
const recorded = decideRecord(
  { kind: 'record', detectId: 10001, userId: 4, projectId: 3, schoolId: 77, grade: 5, result: '2.21', unit: 'm' },
  { catalog, now, dataId: 900001, shard: 1, changedBy: 'teacher-1', schemaVersion: 1 },
);
const correction: CorrectFitnessResult = { kind: 'correct', dataId: 900001, expectedVersion: 1, result: '2.31', unit: 'm' };

describe('who wrote a version', () => {
  it('records the author of every version, the deleter on a tombstone', () => {
    expect(recorded.state.changedBy).toBe('teacher-1');
    expect(decideCorrection(recorded.state, correction, { catalog, now, changedBy: 'teacher-2', schemaVersion: 1 }).state.changedBy).toBe(
      'teacher-2',
    );
    const d = decideDeletion(
      recorded.state,
      { kind: 'delete', dataId: 900001, expectedVersion: 1 },
      { now, changedBy: 'op', schemaVersion: 1 },
    );
    expect(d.state).toMatchObject({ isDeleted: true, changedBy: 'op' });
  });

  it('puts the author into an event from schema version 2 only (version 1 is as it always was)', () => {
    const c = decideCorrection(recorded.state, correction, { catalog, now, changedBy: 'teacher-2', schemaVersion: 1 });
    for (const e of [recorded.event, c.event]) {
      expect(e.schemaVersion).toBe(1);
      expect(JSON.stringify(e)).not.toContain('teacher-');
      expect(Object.keys(e.data)).not.toContain('changedBy');
    }
    const v2 = decideCorrection(recorded.state, correction, { catalog, now, changedBy: 'teacher-2', schemaVersion: 2 });
    expect(v2.event).toMatchObject({ schemaVersion: 2, data: { changedBy: 'teacher-2', measuredAt: null } });
  });
});

describe('moving a result to another school', () => {
  it('keeps the school unless the correction names one, and moves it when it does', () => {
    expect(decideCorrection(recorded.state, correction, { catalog, now, changedBy: 't', schemaVersion: 1 }).state.schoolId).toBe(77);
    const moved = decideCorrection(recorded.state, { ...correction, schoolId: 78 }, { catalog, now, changedBy: 't', schemaVersion: 1 });
    expect(moved.state).toMatchObject({ schoolId: 78, version: 2, userId: 4 });
    expect(moved.event.data).toMatchObject({ schoolId: 78, version: 2 });
  });

  it('validates the new school like a recorded one', () => {
    for (const schoolId of [0, -1, 1.5, 2147483648]) {
      let err: unknown;
      try {
        decideCorrection(recorded.state, { ...correction, schoolId }, { catalog, now, changedBy: 't', schemaVersion: 1 });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(TidemarkError);
      expect(err).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'schoolId' } });
    }
  });
});
