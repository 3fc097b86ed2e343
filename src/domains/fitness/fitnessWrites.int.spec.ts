// The fitness write path on real MariaDB shards: one local transaction per command holding the
// result row, its version and its outbox row; a failing outbox insert rolls everything back;
// optimistic concurrency with the current version on conflict.
import { appendOutboxEvents } from '../../publication/outbox/appendOutboxEvents';
import type { TidemarkError } from '../../shared/errors';
import { teacherInput, useFitnessHarness } from '../../../test/support/fitnessHarness';
import { mysqlServerFeatures } from '../../infra/mysql/serverFeatures';
import { fitnessEventId } from './events';
import { shardForUser } from './sharding';
import { allocateLocalSequence } from './store/allocateDataId';
import { DATA_IDS, shardNow } from './store/rows';

describe('fitness writes (sharded MariaDB + outbox)', () => {
  const h = useFitnessHarness();

  it("records a result on the student's shard with its outbox row in the same transaction", async () => {
    const out = await h.fitness.record(teacherInput);
    const shard = shardForUser(4, 2);
    expect(out.result).toMatchObject({ version: 1, result: '2.210', unit: 'm', isDeleted: false, shard });
    expect(out.result.dataId % 100).toBe(shard);
    expect(out.publication).toEqual({ eventId: fitnessEventId(out.result.dataId, 1), state: 'NEW' });

    const row = await h.shardDb(shard)('fitness_results').where({ data_id: out.result.dataId }).first();
    expect(row).toMatchObject({ version: 1, result: '2.210', unit: 'm' });
    const [ob] = await h.outboxOf(out.result.dataId);
    expect(ob).toMatchObject({
      event_id: `fitness-result-${out.result.dataId}-v1`,
      status: 'NEW',
      message_key: String(out.result.dataId),
      topic: h.env.resources.topics.events.fitness,
    });
    const env1 = JSON.parse(ob!.message_value);
    expect(env1).toMatchObject({ type: 'FitnessResultRecorded', version: 1, schemaVersion: 1, isDeleted: false, shard, domain: 'fitness' });
    expect(env1.data).toEqual({
      dataId: out.result.dataId,
      detectId: 10001,
      userId: 4,
      projectId: 3,
      schoolId: 77,
      grade: 5,
      result: '2.210',
      unit: 'm',
      version: 1,
      isDeleted: false,
      createdAt: out.result.createdAt.toISOString(),
      updatedAt: out.result.updatedAt.toISOString(),
    });
    // The event's time is the shard's commit clock as stored on the row.
    expect(new Date(row.updated_at).toISOString()).toBe(env1.occurredAt);
  });

  it('runs every business transaction at READ COMMITTED without asking for it per transaction', async () => {
    const level = async (q: (sql: string) => Promise<unknown>) => {
      const [rows] = (await q('SELECT @@transaction_isolation AS l').catch(() => q('SELECT @@tx_isolation AS l'))) as [{ l: string }[]];
      return rows[0]!.l;
    };
    // The session level of pooled connections, and what a write's own transaction sees.
    expect(await level((sql) => h.shardDb(0).raw(sql))).toBe('READ-COMMITTED');
    expect(await h.shardDb(1).transaction((trx) => level((sql) => trx.raw(sql)))).toBe('READ-COMMITTED');
  });

  it('allocates the dataId and reads the shard clock in one statement on MariaDB, in two without RETURNING (MySQL 8)', async () => {
    expect(await mysqlServerFeatures(h.shardDb(0))).toEqual({ insertReturning: true });
    const db = h.shardDb(0);
    const [fused, separate, clock, after, counted] = await db.transaction(async (trx) => {
      // Counted twice on the transaction's own connection: by the server (the session's Questions counter,
      // which each SHOW itself increments) and by knex (the transaction's 'query' events).
      let sent = 0;
      trx.on('query', () => sent++);
      const questions = async () => {
        const [rows] = (await trx.raw("SHOW SESSION STATUS LIKE 'Questions'")) as [{ Value: string }[]];
        return Number(rows[0]!.Value);
      };
      const statementsOf = async <T>(work: () => Promise<T>): Promise<[T, number, number]> => {
        const q0 = await questions();
        const from = sent;
        const out = await work();
        const by = sent - from;
        const q1 = await questions();
        return [out, q1 - q0 - 1, by]; // minus the SHOW that read q1
      };
      const clock = await shardNow(trx);
      const [a, aServer, aKnex] = await statementsOf(() => allocateLocalSequence(trx, true));
      const [b, bServer, bKnex] = await statementsOf(() => allocateLocalSequence(trx, false));
      const after = await shardNow(trx);
      return [a, b, clock, after, { fused: [aServer, aKnex], separate: [bServer, bKnex] }];
    });
    expect(counted).toEqual({ fused: [1, 1], separate: [2, 2] });
    // Both read the shard's clock inside the transaction, in order, and took a real, distinct sequence value.
    expect(clock.getTime()).toBeLessThanOrEqual(fused!.now.getTime());
    expect(fused!.now.getTime()).toBeLessThanOrEqual(separate!.now.getTime());
    expect(separate!.now.getTime()).toBeLessThanOrEqual(after.getTime());
    expect(fused!.sequence).toBeGreaterThan(0);
    expect(separate!.sequence).toBeGreaterThan(fused!.sequence);
    const kept = await db(DATA_IDS).whereIn('local_seq', [fused!.sequence, separate!.sequence]).pluck('local_seq');
    expect(kept.map(Number).sort((x, y) => x - y)).toEqual([fused!.sequence, separate!.sequence]);
  });

  it('rolls the result back when its outbox insert fails (commit atomicity)', async () => {
    const first = await h.fitness.record({ ...teacherInput, userId: 9 });
    const shard = first.result.shard;
    // The next record on this shard gets the next sequence; occupy its eventId so the outbox insert fails.
    const nextId = (Math.floor(first.result.dataId / 100) + 1) * 100 + shard;
    await h.shardDb(shard).transaction((trx) =>
      appendOutboxEvents(
        trx,
        [
          {
            eventId: fitnessEventId(nextId, 1),
            domain: 'fitness',
            type: 'X',
            aggregateId: 'occupied',
            version: 1,
            schemaVersion: 1,
            isDeleted: false,
            occurredAt: new Date(),
            shard,
            data: {},
          },
        ],
        () => 'occupied',
      ),
    );
    const before = await h.counts();
    const err = await h.codeOf(h.fitness.record({ ...teacherInput, userId: 9, idempotencyKey: 'atomicity-1' }));
    expect(err.code).toBe('INTERNAL');
    expect(await h.counts()).toEqual(before);
    expect(await h.shardDb(shard)('fitness_results').where({ data_id: nextId }).first()).toBeUndefined();
  });

  it('corrects with the expected version and refuses a stale one with the current version, changing nothing', async () => {
    const rec = await h.fitness.record(teacherInput);
    const id = rec.result.dataId;
    const cor = await h.fitness.correct({ dataId: id, expectedVersion: 1, result: '2.31', unit: 'm' });
    expect(cor.result).toMatchObject({ version: 2, result: '2.310', detectId: 10001, userId: 4 });
    expect(cor.publication).toEqual({ eventId: `fitness-result-${id}-v2`, state: 'NEW' });
    expect(cor.result.updatedAt.getTime()).toBeGreaterThanOrEqual(rec.result.updatedAt.getTime());

    const before = await h.counts();
    const stale = await h.codeOf(h.fitness.correct({ dataId: id, expectedVersion: 1, result: '2.50', unit: 'm' }));
    expect(stale).toEqual({ code: 'VERSION_CONFLICT', details: { id: String(id), expectedVersion: 1, currentVersion: 2 } });
    expect(await h.counts()).toEqual(before);
    expect(await h.fitness.get(id)).toMatchObject({ version: 2, result: '2.310' });
    expect((await h.outboxOf(id)).map((r) => JSON.parse(r.message_value).data.result)).toEqual(['2.210', '2.310']);
  });

  it('lets exactly one of several concurrent corrections of the same version win', async () => {
    const rec = await h.fitness.record(teacherInput);
    const id = rec.result.dataId;
    const results = await Promise.allSettled(
      [2.4, 2.5, 2.6].map((v) => h.fitness.correct({ dataId: id, expectedVersion: 1, result: String(v), unit: 'm' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected'))
      expect((r.reason as TidemarkError).code).toBe('VERSION_CONFLICT');
    expect((await h.outboxOf(id)).map((r) => r.version)).toEqual([1, 2]);
  });
});
