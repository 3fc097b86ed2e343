// Who wrote what on the fitness write path (real MariaDB shards): every version records its author's
// token subject, the deletion log who wrote the last state and who deleted it, and none of it reaches
// an event; idempotency keys belong to the caller, so another principal reusing a key writes a result
// of its own while each caller's retry still returns its own first answer.
import { teacherInput, useFitnessHarness } from '../../../test/support/fitnessHarness';
import { teacherOf, TEST_OPERATOR } from '../../../test/support/principals';

describe('fitness authors and per-caller idempotency (sharded MariaDB)', () => {
  const h = useFitnessHarness();
  const teacher77 = teacherOf('teacher-77', 77);
  const row = (id: number) =>
    h
      .shardDb(id % 100)('fitness_results')
      .where({ data_id: id })
      .first();

  it('stores who wrote each version, and on a deletion who wrote the last state and who deleted it', async () => {
    const rec = await h.as(teacher77).record({ ...teacherInput, userId: 306 });
    const id = rec.result.dataId;
    await h.as(teacherOf('teacher-77b', 77)).correct({ dataId: id, expectedVersion: 1, result: '2.31', unit: 'm' });
    expect(await row(id)).toMatchObject({ version: 2, changed_by: 'teacher-77b' });
    const del = await h.as(TEST_OPERATOR).delete({ dataId: id, expectedVersion: 2 });
    expect(del.result).toMatchObject({ isDeleted: true, version: 3, changedBy: 'test-operator' });
    expect(
      await h
        .shardDb(id % 100)('fitness_result_deletions')
        .where({ data_id: id })
        .first(),
    ).toMatchObject({ version: 3, changed_by: 'teacher-77b', deleted_by: 'test-operator' });
    expect(await h.fitness.get(id)).toMatchObject({ isDeleted: true, changedBy: 'test-operator' });
    // None of it reaches the events.
    for (const o of await h.outboxOf(id)) expect(o.message_value).not.toMatch(/teacher-77|test-operator|changedBy/);
  });

  it('keeps idempotency keys per caller: another principal with the same key gets a result of its own', async () => {
    const key = 'shared-key:2026-03-01';
    const input = { ...teacherInput, userId: 307, idempotencyKey: key };
    const a = await h.as(teacher77).record(input);
    const b = await h.as(teacherOf('teacher-77c', 77)).record(input);
    expect(b.replayed).toBe(false);
    expect(b.result.dataId).not.toBe(a.result.dataId);
    expect(b.result.changedBy).toBe('teacher-77c');
    // Each caller's retry returns its own first answer.
    expect(await h.as(teacher77).record(input)).toMatchObject({ replayed: true, result: { dataId: a.result.dataId } });
    expect(await h.as(teacherOf('teacher-77c', 77)).record(input)).toMatchObject({ replayed: true, result: { dataId: b.result.dataId } });
    // Different content under another caller's key is not a conflict: it is a key of its own.
    const c = await h.fitness.record({ ...input, result: '2.50' });
    expect(c).toMatchObject({ replayed: false, result: { result: '2.500', changedBy: 'test-service' } });
    const owners = await h
      .shardDb(a.result.shard)('fitness_idempotency_keys')
      .where({ idempotency_key: key })
      .orderBy('owner')
      .select('owner', 'data_id');
    expect(owners.map((o: { owner: string; data_id: number }) => [o.owner, Number(o.data_id)])).toEqual([
      ['teacher-77', a.result.dataId],
      ['teacher-77c', b.result.dataId],
      ['test-service', c.result.dataId],
    ]);
  });
});
