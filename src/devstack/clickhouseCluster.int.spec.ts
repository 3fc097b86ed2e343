// The local ClickHouse cluster from the stack manager (18.16 servers, ZooKeeper): ON CLUSTER DDL reaches
// every server, a Distributed table spreads rows over both shards, shard 2's two replicas hold the same
// rows, writes and reads go on with one replica SIGKILLed, and the restarted replica catches up. The
// cluster is left running for other suites (`up` is idempotent); the test's database is dropped.
import { repoRoot, stackPath } from '../config/paths';
import { ident } from '../infra/clickhouse/literal';
import { waitFor } from '../shared/lifecycle';
import { testSettings, uniqueSuffix } from '../../test/support/testEnv';
import { clickhouseClusterStack, clusterDdl, clusterNodeClient, type ClickHouseClusterNode } from './clickhouseCluster';

describe('local ClickHouse cluster (shard 1: s1r1, shard 2: s2r1 + s2r2)', () => {
  const stack = clickhouseClusterStack({ stackDir: stackPath(testSettings()), root: repoRoot, log: () => undefined });
  const db = ident(`tidemark_cluster_${uniqueSuffix()}`);
  const node = (name: string) => stack.nodes.find((n) => n.name === name)!;
  const onCluster = `ON CLUSTER ${stack.cluster}`;

  /** One client per call: a pooled keep-alive socket to a server that was SIGKILLed would fail the next query. */
  async function run<T>(n: ClickHouseClusterNode, f: (ch: ReturnType<typeof clusterNodeClient>) => Promise<T>): Promise<T> {
    const ch = clusterNodeClient(n.httpUrl);
    try {
      return await f(ch);
    } finally {
      await ch.close();
    }
  }
  const count = (n: ClickHouseClusterNode, table: string) =>
    run(n, async (ch) => {
      const rows = await (
        await ch.query({ query: `SELECT count() AS n FROM ${db}.${table}`, format: 'JSONEachRow' })
      ).json<{ n: string }>();
      return Number(rows[0]!.n);
    });
  const ids = (n: ClickHouseClusterNode) =>
    run(n, async (ch) => {
      const rows = await (
        await ch.query({ query: `SELECT id FROM ${db}.t_local ORDER BY id`, format: 'JSONEachRow' })
      ).json<{ id: string }>();
      return rows.map((r) => Number(r.id));
    });
  const syncReplica = (n: ClickHouseClusterNode) => run(n, (ch) => ch.command({ query: `SYSTEM SYNC REPLICA ${db}.t_local` }));
  /** Through the Distributed table from the entry node; insert_distributed_sync: written to every shard on return. */
  const insert = (from: number, n: number) =>
    run(stack.nodes[0]!, (ch) =>
      ch.insert({
        table: `${db}.t`,
        format: 'JSONEachRow',
        values: Array.from({ length: n }, (_, i) => ({ id: from + i, version: 1, payload: `row-${from + i}` })),
        clickhouse_settings: { insert_distributed_sync: 1 },
      }),
    );

  beforeAll(async () => {
    await stack.up();
    await run(stack.nodes[0]!, async (ch) => {
      await clusterDdl(ch, `CREATE DATABASE ${db} ${onCluster}`);
      await clusterDdl(
        ch,
        `CREATE TABLE ${db}.t_local ${onCluster} (id UInt64, version UInt64, payload String) ` +
          `ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/${db}/t', '{replica}', version) ORDER BY id`,
      );
      await clusterDdl(
        ch,
        `CREATE TABLE ${db}.t ${onCluster} (id UInt64, version UInt64, payload String) ` +
          `ENGINE = Distributed(${stack.cluster}, ${db}, t_local, cityHash64(id))`,
      );
    });
  }, 180000);

  afterAll(async () => {
    // A failed run may have left s2r2 down: bring it back so the drop reaches every server and other suites find the cluster whole.
    await stack.start('s2r2');
    await run(stack.nodes[0]!, (ch) => clusterDdl(ch, `DROP DATABASE IF EXISTS ${db} ${onCluster}`));
  }, 120000);

  it('shards through Distributed, replicates shard 2, and survives and heals a killed replica', async () => {
    expect(stack.nodes.map((n) => [n.name, n.shard, n.replica])).toEqual([
      ['s1r1', 1, 1],
      ['s2r1', 2, 1],
      ['s2r2', 2, 2],
    ]);
    const [s1r1, s2r1, s2r2] = [node('s1r1'), node('s2r1'), node('s2r2')];

    await insert(0, 100);
    // internal_replication: the sync insert returns once one replica of shard 2 has the rows; the other
    // fetches them moments later, and a read balanced onto it before that sees shard 1 only. SYNC REPLICA
    // on both (whichever got the insert) before reading through the Distributed table.
    await Promise.all([syncReplica(s2r1), syncReplica(s2r2)]);
    expect(await count(s1r1, 't')).toBe(100);
    const shard1 = await count(s1r1, 't_local');
    const shard2 = await ids(s2r1);
    expect(shard1).toBeGreaterThan(0);
    expect(shard2.length).toBeGreaterThan(0);
    expect(shard1 + shard2.length).toBe(100);
    expect(await ids(s2r2)).toEqual(shard2);

    await stack.kill('s2r2');
    await insert(100, 100);
    expect(await count(s1r1, 't')).toBe(200);
    const shard2After = await count(s2r1, 't_local');
    expect(shard2After).toBeGreaterThan(shard2.length);

    await stack.start('s2r2');
    // Right after a restart the replica may still be activating (its old ZooKeeper session expiring), so
    // SYNC REPLICA is retried until it succeeds and the replica holds what s2r1 holds.
    await waitFor(
      async () => {
        await syncReplica(s2r2);
        return (await count(s2r2, 't_local')) === shard2After;
      },
      { timeoutMs: 60000, intervalMs: 300, what: 's2r2 to catch up with s2r1' },
    );
    expect(await ids(s2r2)).toEqual(await ids(s2r1));
    expect(await count(s1r1, 't')).toBe(200);
  }, 180000);
});
