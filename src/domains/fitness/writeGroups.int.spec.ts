// Group commit on real MariaDB shards: concurrent new results that reach a shard together commit in
// one transaction, each with its own result row and outbox row and exactly its own outcome; a group
// that meets a used idempotency key falls back to one transaction per request and still answers each
// request as if it had been alone.
import { fitnessOutboxPublisher } from './wiring';
import { teacherInput, useFitnessHarness } from '../../../test/support/fitnessHarness';
import { fitnessEventId } from './events';
import { fitnessService, type FitnessService } from './service';

describe('fitness write groups (group commit on MariaDB)', () => {
  const h = useFitnessHarness();
  let grouped: FitnessService;
  const sizes: number[] = [];

  beforeAll(() => {
    grouped = fitnessService({ shards: h.env.resources.mysql, publisher: fitnessOutboxPublisher(h.env.resources), maxWriteGroup: 16, onWriteGroup: (n) => sizes.push(n) });
  });
  beforeEach(() => sizes.splice(0));

  it('commits concurrent new results on a shard in shared transactions, each with its own rows and outcome', async () => {
    const inputs = Array.from({ length: 40 }, (_, i) => ({ ...teacherInput, userId: 1000 + i, result: (1 + (i % 30) / 10).toFixed(2) }));
    const outs = await Promise.all(inputs.map((input) => grouped.record(input)));

    expect(sizes.reduce((a, b) => a + b, 0)).toBe(40);
    expect(Math.max(...sizes)).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16);
    expect(new Set(outs.map((o) => o.result.dataId)).size).toBe(40);
    for (const [i, out] of outs.entries()) {
      expect(out).toMatchObject({ replayed: false, result: { userId: 1000 + i, result: `${(1 + (i % 30) / 10).toFixed(2)}0`, version: 1 } });
      expect(out.publication).toEqual({ eventId: fitnessEventId(out.result.dataId, 1), state: 'NEW' });
      const row = await h.shardDb(out.result.shard)('fitness_results').where({ data_id: out.result.dataId }).first();
      expect(row).toMatchObject({ user_id: 1000 + i, result: `${(1 + (i % 30) / 10).toFixed(2)}0`, version: 1 });
      const outbox = await h.outboxOf(out.result.dataId);
      expect(outbox.map((r) => JSON.parse(r.message_value).data.userId)).toEqual([1000 + i]);
    }
  });

  it('falls back to one transaction per request when a key in the group was used before, answering each exactly', async () => {
    const first = await grouped.record({ ...teacherInput, userId: 2000, idempotencyKey: 'group-key-used' });
    const before = await h.counts();
    // The retry of the used key joins its shard's group together with some of the fresh requests.
    const fresh = Array.from({ length: 9 }, (_, i) => ({ ...teacherInput, userId: 2001 + i, idempotencyKey: `group-key-fresh-${i}` }));
    const [again, ...outs] = await Promise.all([grouped.record({ ...teacherInput, userId: 2000, idempotencyKey: 'group-key-used' }), ...fresh.map((f) => grouped.record(f))]);

    expect(again).toMatchObject({ replayed: true, result: { dataId: first.result.dataId, version: 1 } });
    expect(outs.every((o) => !o.replayed)).toBe(true);
    expect(new Set(outs.map((o) => o.result.dataId)).size).toBe(9);
    const after = await h.counts();
    const resultsAdded = after.filter((_, i) => i % 4 === 0).reduce((a, b) => a + b, 0) - before.filter((_, i) => i % 4 === 0).reduce((a, b) => a + b, 0);
    const keysAdded = after.filter((_, i) => i % 4 === 3).reduce((a, b) => a + b, 0) - before.filter((_, i) => i % 4 === 3).reduce((a, b) => a + b, 0);
    expect(resultsAdded).toBe(9);
    expect(keysAdded).toBe(9);
  });

  it('stores one result when the same keyed request arrives twice in one group', async () => {
    const input = { ...teacherInput, userId: 3001, idempotencyKey: 'group-key-twice' };
    const [a, b] = await Promise.all([grouped.record(input), grouped.record(input)]);
    expect(a.result.dataId).toBe(b.result.dataId);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    expect(await h.shardDb(a.result.shard)('fitness_results').where({ user_id: 3001 }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it('keeps validation per request: a bad member is refused alone and changes nothing', async () => {
    const before = await h.counts();
    const results = await Promise.allSettled([grouped.record({ ...teacherInput, userId: 4001 }), grouped.record({ ...teacherInput, userId: 4002, result: 'NaN' }), grouped.record({ ...teacherInput, userId: 4003 })]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await h.codeOf(Promise.reject((results[1] as PromiseRejectedResult).reason))).toMatchObject({ code: 'VALIDATION_FAILED' });
    const after = await h.counts();
    expect(after.filter((_, i) => i % 4 === 0).reduce((a, b) => a + b, 0) - before.filter((_, i) => i % 4 === 0).reduce((a, b) => a + b, 0)).toBe(2);
  });
});
