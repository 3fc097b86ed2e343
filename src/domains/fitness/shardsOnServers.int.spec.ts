// Shards on separate servers, on the real engines: the test environment puts shard 0 on the machine's
// MariaDB and shard 1 on the stack's second server (test/support/testEnv.ts). Each check reads the
// servers over connections of the test's own, one per server, never through the application's pools:
// a student's result lands on the server of its shard, reconciliation reads each shard from its server,
// and each shard's relay claims and marks the rows of its own server only.
import type { Knex } from 'knex';
import { mysqlKnex } from '../../infra/mysql/fromMysql';
import { onServer, shardTargets, type ShardTarget } from '../../infra/mysql/shardTargets';
import { createRegistry } from '../../metrics/registry';
import { discardStateChanges } from '../../publication/stateChanges/stateChange';
import { campaignScope } from './reconciliation/campaignScope';
import type { ReconciliationService } from '../../reconciliation/service';
import { reconciliationFrom } from '../../app/wiring/reconciliation';
import { fromKafkaSink, type EventSink } from '../../relay/kafkaSink';
import { fromOutboxTable } from '../../publication/outbox/outboxTable';
import { relayOnce } from '../../relay/relayEngine';
import { silentLogger } from '../../shared/logger';
import { teacherInput } from '../../../test/support/fitnessHarness';
import { TEST_SERVICE } from '../../../test/support/principals';
import { fitnessStates, seedProjection, seedSource } from '../../../test/support/reconciliationSeed';
import { mysqlStore, testRelayDeps } from '../../../test/support/relayDeps';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { fitnessService, type FitnessService } from './service';
import { shardForUser } from './sharding';
import { fitnessOutboxPublisher } from '../../app/wiring/fitness';

jest.setTimeout(120000);

describe('fitness shards on separate servers', () => {
  let env: TestEnv;
  let targets: ShardTarget[];
  /** The test's own connection to each shard's database, on that shard's server. */
  let direct: Knex[];
  let fitness: FitnessService;
  let reconciliation: ReconciliationService | undefined;
  let sink: EventSink | undefined;
  const written: { shard: number; userId: number; dataId: number }[] = [];

  beforeAll(async () => {
    env = await createTestEnv({ reconcileCatchUpWaitMs: 500, reconcileRetryBaseMs: 50, reconcileRetryMaxMs: 100 });
    targets = shardTargets(env.settings);
    direct = targets.map((t) => mysqlKnex(onServer(env.settings, t), t.database, 1));
    fitness = fitnessService({ shards: env.resources.mysql, publisher: fitnessOutboxPublisher(env.resources, discardStateChanges) });
  });
  afterAll(async () => {
    await reconciliation?.stop();
    await sink?.close();
    await Promise.allSettled((direct ?? []).map((db) => db.destroy()));
    await env?.cleanup();
  });

  const rows = async <T>(db: Knex, sql: string, bindings: string[] = []): Promise<T[]> => ((await db.raw(sql, bindings)) as [T[]])[0];

  it('runs each shard on a server of its own, holding only its own database', async () => {
    expect(new Set(targets.map((t) => `${t.host}:${t.port}`)).size).toBe(2);
    for (const [i, t] of targets.entries()) {
      const [server] = await rows<{ port: number }>(direct[i]!, 'SELECT @@port AS port');
      expect(Number(server!.port)).toBe(t.port);
      const other = targets[1 - i]!;
      expect(await rows(direct[i]!, 'SELECT 1 FROM information_schema.schemata WHERE schema_name = ?', [other.database])).toEqual([]);
    }
  });

  it("writes each student's result, version and event to the server of the student's shard", async () => {
    for (const shard of [0, 1]) {
      const userId = [...Array(100).keys()].map((n) => 500 + n).find((u) => shardForUser(u, 2) === shard)!;
      const out = await fitness.record({ ...teacherInput, userId, detectId: 33001 }, TEST_SERVICE);
      expect(out.result.dataId % 100).toBe(shard);
      written.push({ shard, userId, dataId: out.result.dataId });
    }
    for (const w of written) {
      const own = direct[w.shard]!;
      const other = direct[1 - w.shard]!;
      expect(await own('fitness_results').where({ user_id: w.userId }).pluck('data_id')).toEqual([w.dataId]);
      expect(await other('fitness_results').where({ user_id: w.userId }).pluck('data_id')).toEqual([]);
      expect(
        await own('outbox_events')
          .where({ aggregate_id: String(w.dataId) })
          .pluck('status'),
      ).toEqual(['NEW']);
      expect(
        await other('outbox_events')
          .where({ aggregate_id: String(w.dataId) })
          .pluck('status'),
      ).toEqual([]);
    }
  });

  it('reconciles each shard from its own server', async () => {
    reconciliation = reconciliationFrom(env.resources, { registry: createRegistry(false), logger: silentLogger });
    const states = fitnessStates({ detectId: 33002, count: 6, firstSequence: 1000, updatedAt: new Date(Date.now() - 3600_000) }, 2);
    await seedSource(env.resources, states);
    await seedProjection(env.resources, states);
    const scope = campaignScope(33002);
    const clean = await reconciliation.reconcile(scope, 'CONTENT', { requestedBy: 'test' });
    expect(clean.run.outcome).toBe('CLEAN');
    // One result changed on each server behind the application's back: found on both, so both servers were read.
    const victims = [0, 1].map((shard) => states.find((s) => s.shard === shard)!.dataId);
    for (const [shard, dataId] of victims.entries())
      await direct[shard]!('fitness_results').where({ data_id: dataId }).update({ result: '99.000' });
    const found = await reconciliation.reconcile(scope, 'CONTENT', { requestedBy: 'test' });
    expect(found.discrepancies.map((d) => d.aggregateId).sort()).toEqual(victims.map(String).sort());
  });

  it("relays each shard from its own server: a relay claims and marks only its server's rows", async () => {
    sink = fromKafkaSink(env.resources.kafka, { timeoutMs: 10000 });
    const statuses = () =>
      Promise.all(
        written.map((w) =>
          direct[w.shard]!('outbox_events')
            .where({ aggregate_id: String(w.dataId) })
            .first('status'),
        ),
      );
    // Shard 1 first: shard 0's row must still be waiting on its server afterwards.
    for (const shard of [1, 0]) {
      const store = mysqlStore(env, shard);
      const report = await relayOnce(fromOutboxTable(store), testRelayDeps(store, sink));
      expect(report).toMatchObject({ claimed: 1, sent: 1, failed: 0 });
      const now = await statuses();
      expect(now.map((r, i) => [written[i]!.shard, (r as { status: string }).status])).toEqual([
        [0, shard === 1 ? 'NEW' : 'SENT'],
        [1, 'SENT'],
      ]);
    }
  });
});
