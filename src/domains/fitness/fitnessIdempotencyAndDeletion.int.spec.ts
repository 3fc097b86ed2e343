// The fitness write path on real MariaDB shards: idempotent records (also under concurrency, with the
// same and with different content),
// versioned tombstones with a deletion log, and invalid input that changes nothing.
import { teacherInput, useFitnessHarness } from '../../../test/support/fitnessHarness';
import { fitnessEventId } from './events';

describe('fitness idempotency, deletion and bad input (sharded MariaDB + outbox)', () => {
  const h = useFitnessHarness();

  it('returns the first result for a retried record with the same idempotency key, even when retried concurrently', async () => {
    const input = { ...teacherInput, userId: 21, idempotencyKey: 'teacher-42:2026-03-01:jump' };
    const [a, b, c] = await Promise.all([h.fitness.record(input), h.fitness.record(input), h.fitness.record(input)]);
    expect(new Set([a.result.dataId, b.result.dataId, c.result.dataId]).size).toBe(1);
    expect([a, b, c].filter((x) => !x.replayed)).toHaveLength(1);
    expect(await h.outboxOf(a.result.dataId)).toHaveLength(1);
    const again = await h.fitness.record(input);
    expect(again).toMatchObject({
      replayed: true,
      result: { dataId: a.result.dataId, version: 1, result: '2.210' },
      publication: { eventId: fitnessEventId(a.result.dataId, 1), state: 'NEW' },
    });
    expect(again.result.createdAt.toISOString()).toBe(a.result.createdAt.toISOString());
    expect(await h.codeOf(h.fitness.record({ ...input, result: '2.30' }))).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
  });

  it('gives concurrent records with one idempotency key and different content one result; the others are conflicts', async () => {
    const key = 'teacher-42:2026-03-02:race-diff';
    const sent = Array.from({ length: 8 }, (_, i) => ({
      ...teacherInput,
      userId: 22,
      idempotencyKey: key,
      result: i % 2 ? '3.10' : '2.90',
    }));
    const settled = await Promise.allSettled(sent.map((x) => h.fitness.record(x)));
    const written = settled.flatMap((x) => (x.status === 'fulfilled' ? [x.value] : []));
    expect(written.filter((w) => !w.replayed)).toHaveLength(1);
    const winner = written.find((w) => !w.replayed)!;
    settled.forEach((x, i) => {
      if (Number(sent[i]!.result) === Number(winner.result.result))
        expect(x).toMatchObject({ status: 'fulfilled', value: { result: { dataId: winner.result.dataId } } });
      else expect(x).toMatchObject({ status: 'rejected', reason: { code: 'IDEMPOTENCY_CONFLICT' } });
    });
    // One result row, one outbox row, one key, on every shard taken together.
    let results = 0;
    let keys = 0;
    for (const s of h.env.resources.mysql.shards) {
      results += Number(((await s.db('fitness_results').where({ user_id: 22 }).count({ n: '*' })) as { n: number }[])[0]!.n);
      keys += Number(((await s.db('fitness_idempotency_keys').where({ idempotency_key: key }).count({ n: '*' })) as { n: number }[])[0]!.n);
    }
    expect({ results, keys }).toEqual({ results: 1, keys: 1 });
    expect(await h.outboxOf(winner.result.dataId)).toHaveLength(1);
  });

  it('deletes with a versioned tombstone event and keeps a deletion log that outlives the row', async () => {
    const rec = await h.fitness.record(teacherInput);
    const id = rec.result.dataId;
    await h.fitness.correct({ dataId: id, expectedVersion: 1, result: '2.31', unit: 'm' });
    const del = await h.fitness.delete({ dataId: id, expectedVersion: 2 });
    expect(del.result).toMatchObject({ version: 3, isDeleted: true, result: '2.310' });
    expect(del.publication.eventId).toBe(`fitness-result-${id}-v3`);
    expect(
      await h
        .shardDb(id % 100)('fitness_results')
        .where({ data_id: id })
        .first(),
    ).toBeUndefined();
    expect(
      await h
        .shardDb(id % 100)('fitness_result_deletions')
        .where({ data_id: id })
        .first(),
    ).toMatchObject({ version: 3, result: '2.310' });
    const tomb = JSON.parse((await h.outboxOf(id))[2]!.message_value);
    expect(tomb).toMatchObject({
      type: 'FitnessResultDeleted',
      isDeleted: true,
      version: 3,
      data: { isDeleted: true, version: 3, result: '2.310', unit: 'm', userId: 4 },
    });
    expect(await h.fitness.get(id)).toMatchObject({ isDeleted: true, version: 3 });
    expect(await h.codeOf(h.fitness.correct({ dataId: id, expectedVersion: 3, result: '2.40', unit: 'm' }))).toEqual({
      code: 'NOT_FOUND',
      details: { id: String(id), deleted: true, currentVersion: 3 },
    });
    expect(await h.codeOf(h.fitness.delete({ dataId: id, expectedVersion: 3 }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('rejects invalid input with a stable code and changes no row and no outbox row', async () => {
    const rec = await h.fitness.record(teacherInput);
    const id = rec.result.dataId;
    const before = await h.counts();
    const bad: [Promise<unknown>, string, string][] = [
      [h.fitness.record({ ...teacherInput, unit: 'furlong' }), 'VALIDATION_FAILED', 'unit'],
      [h.fitness.record({ ...teacherInput, result: '-1.00' }), 'VALIDATION_FAILED', 'result'],
      [h.fitness.record({ ...teacherInput, result: '250' }), 'VALIDATION_FAILED', 'result'],
      [h.fitness.record({ ...teacherInput, result: '2.2105' }), 'VALIDATION_FAILED', 'result'],
      [h.fitness.record({ ...teacherInput, result: '1e3' }), 'VALIDATION_FAILED', 'result'],
      [h.fitness.record({ ...teacherInput, unit: 'm'.repeat(10000) }), 'VALIDATION_FAILED', 'unit'],
      [h.fitness.record({ ...teacherInput, idempotencyKey: 'k'.repeat(129) }), 'VALIDATION_FAILED', 'idempotencyKey'],
      [h.fitness.record({ ...teacherInput, projectId: 999 }), 'VALIDATION_FAILED', 'projectId'],
      [h.fitness.record({ ...teacherInput, grade: 0 }), 'VALIDATION_FAILED', 'grade'],
      [h.fitness.correct({ dataId: id, expectedVersion: 1, result: '2.31', unit: 'count' }), 'VALIDATION_FAILED', 'unit'],
      [h.fitness.correct({ dataId: id, expectedVersion: 1, result: '99', unit: 'm' }), 'VALIDATION_FAILED', 'result'],
      [h.fitness.correct({ dataId: id, expectedVersion: 0, result: '2.31', unit: 'm' }), 'VALIDATION_FAILED', 'expectedVersion'],
    ];
    for (const [p, code, field] of bad) expect(await h.codeOf(p)).toMatchObject({ code, details: { field } });
    expect(await h.codeOf(h.fitness.correct({ dataId: 987654300, expectedVersion: 1, result: '2.31', unit: 'm' }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await h.codeOf(h.fitness.correct({ dataId: 987654399, expectedVersion: 1, result: '2.31', unit: 'm' }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await h.counts()).toEqual(before);
  });
});
