// When a fitness test was taken (measuredAt) and who wrote a version (changedBy), on the real sharded
// MariaDB with the service writing event schema version 2: stored, emitted in the outbox event, kept by
// a correction that does not say, kept in the deletion log, part of the idempotency request, checked
// against the shard clock, and rebuilt from state into the very event first written.
import { fitnessOutboxPublisher } from '../../app/wiring/fitness';
import { discardStateChanges } from '../../publication/stateChanges/stateChange';
import { fixedSchemaVersions } from '../../publication/schemaVersions';
import { teacherOf } from '../../../test/support/principals';
import { teacherInput, useFitnessHarness, type ActingFitness } from '../../../test/support/fitnessHarness';
import { fitnessEvent } from './events';
import { fitnessService } from './service';
import { readResult } from './store/readResult';

describe('fitness schema version 2 fields (MariaDB shards, outbox)', () => {
  const h = useFitnessHarness();
  const teacher = teacherOf('teacher-v2', 77);
  let v2: ActingFitness;
  const measuredAt = new Date('2026-02-27T09:15:00.250Z');

  beforeAll(() => {
    const svc = fitnessService({
      shards: h.env.resources.mysql,
      publisher: fitnessOutboxPublisher(h.env.resources, discardStateChanges),
      schemaVersions: fixedSchemaVersions({ fitness: 2 }),
    });
    v2 = {
      record: (c) => svc.record(c, teacher),
      correct: (c) => svc.correct(c, teacher),
      delete: (c) => svc.delete(c, teacher),
      get: svc.get,
    };
  });

  const outboxData = async (dataId: number) =>
    (await h.outboxOf(dataId)).map((r) => JSON.parse(r.message_value) as { schemaVersion: number; data: Record<string, unknown> });

  it('stores measuredAt, emits it with changedBy, keeps it on a correction that does not say, and rebuilds the same event', async () => {
    const { result } = await v2.record({ ...teacherInput, measuredAt });
    expect(result).toMatchObject({ measuredAt, changedBy: 'teacher-v2' });
    const row = (await h.shardDb(result.shard)('fitness_results').where({ data_id: result.dataId }).first()) as { measured_at: Date };
    expect(new Date(row.measured_at).toISOString()).toBe(measuredAt.toISOString());

    const kept = (await v2.correct({ dataId: result.dataId, expectedVersion: 1, result: '2.30', unit: 'm' })).result;
    expect(kept.measuredAt).toEqual(measuredAt);
    const later = new Date('2026-02-28T10:00:00.000Z');
    const moved = (await v2.correct({ dataId: result.dataId, expectedVersion: 2, result: '2.31', unit: 'm', measuredAt: later })).result;
    expect(moved.measuredAt).toEqual(later);

    const events = await outboxData(result.dataId);
    expect(events.map((e) => [e.schemaVersion, e.data.changedBy, e.data.measuredAt])).toEqual([
      [2, 'teacher-v2', measuredAt.toISOString()],
      [2, 'teacher-v2', measuredAt.toISOString()],
      [2, 'teacher-v2', later.toISOString()],
    ]);
    // A repair or the reconciler rebuilds the event from the stored state alone: the same data.
    const state = (await readResult(h.shardDb(result.shard), result.dataId))!;
    expect(fitnessEvent('FitnessResultCorrected', state, 2).data).toEqual(events[2]!.data);

    const gone = (await v2.delete({ dataId: result.dataId, expectedVersion: 3 })).result;
    const tombstone = (await readResult(h.shardDb(result.shard), result.dataId))!;
    expect(tombstone).toMatchObject({ isDeleted: true, measuredAt: later, changedBy: 'teacher-v2' });
    expect(fitnessEvent('FitnessResultDeleted', tombstone, 2).data).toEqual((await outboxData(gone.dataId))[3]!.data);
  });

  it('writes version 1 events without the fields, and null for a result recorded without measuredAt', async () => {
    const { result } = await h.as(teacher).record({ ...teacherInput, measuredAt });
    const [event] = await outboxData(result.dataId);
    expect(event!.schemaVersion).toBe(1);
    expect(event!.data).not.toHaveProperty('measuredAt');
    expect(event!.data).not.toHaveProperty('changedBy');
    expect((await v2.record({ ...teacherInput })).result.measuredAt).toBeNull();
  });

  it('refuses a measuredAt more than a minute ahead of the shard clock or before 1970-01-02 (VALIDATION_FAILED, nothing written)', async () => {
    const before = await h.counts();
    for (const at of [new Date(Date.now() + 10 * 60000), new Date('1970-01-01T12:00:00Z')]) {
      const e = await h.codeOf(v2.record({ ...teacherInput, measuredAt: at }));
      expect(e).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'measuredAt' } });
    }
    expect(await h.counts()).toEqual(before);
    const { result } = await v2.record({ ...teacherInput, measuredAt: new Date(Date.now() + 5000) }); // within the minute
    const e = await h.codeOf(v2.correct({ dataId: result.dataId, expectedVersion: 1, result: '2.3', unit: 'm', measuredAt: new Date(0) }));
    expect(e.code).toBe('VALIDATION_FAILED');
  });

  it('makes measuredAt part of the idempotency request: same key and time replays, another time conflicts', async () => {
    const key = `v2-${Date.now()}`;
    const first = await v2.record({ ...teacherInput, idempotencyKey: key, measuredAt });
    const again = await v2.record({ ...teacherInput, idempotencyKey: key, measuredAt });
    expect(again.replayed).toBe(true);
    expect(again.result).toEqual(first.result);
    const other = await h.codeOf(v2.record({ ...teacherInput, idempotencyKey: key, measuredAt: new Date('2026-02-26T00:00:00Z') }));
    expect(other.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await h.codeOf(v2.record({ ...teacherInput, idempotencyKey: key }))).code).toBe('IDEMPOTENCY_CONFLICT');
  });
});
