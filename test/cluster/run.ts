// `npm run test:cluster`: the read side on a real ClickHouse cluster. Brings up the usual stack
// (MariaDB, PostgreSQL, Kafka) and the local 3-server cluster (src/devstack/clickhouseCluster.ts:
// shard 1 = s1r1, shard 2 = s2r1 + s2r2, ZooKeeper), then runs, with CLICKHOUSE_URL at s1r1 and
// CLICKHOUSE_CLUSTER=tidemark, the suites that prove the read side end to end on one code path with
// the single server: the read models (teacher story, late version and duplicate, deletion, reports,
// orders), the ClickHouse migrations down and up (ON CLUSTER, every server's schema), the rebuild's
// failure paths and crash recovery (no shadow or retired table left on any server), reconciliation
// with repair and the controlled rebuild, reconciliation and rebuild of a
// campaign and of an order window while they are being edited, the freshness property (no FRESH answer
// shows an old version), the event schema version 2 fields read back, and the loss of a replica during
// projection, and a whole shard stopped and started gracefully. In band: those two stop servers the
// others would otherwise be using.
import { repoRoot, stackPath } from '../../src/config/paths';
import { loadSettings } from '../../src/config/settings';
import { CLICKHOUSE_CLUSTER, clickhouseClusterStack } from '../../src/devstack/clickhouseCluster';
import { stackServices, stackUp } from '../../src/devstack/stack';
import { exitWith, runJestInt } from '../support/jestRunner';

export const CLUSTER_SUITES = [
  'test/e2e/readModels.e2e.spec.ts',
  'test/e2e/reconciliation.e2e.spec.ts',
  'test/e2e/reconciliationLiveScope.e2e.spec.ts',
  'test/e2e/reconciliationLiveOrders.e2e.spec.ts',
  'test/e2e/freshnessNeverLies.e2e.spec.ts',
  'test/e2e/rebuildLiveScope.e2e.spec.ts',
  'test/e2e/eventV2Fields.e2e.spec.ts',
  'src/infra/migrationsDownUp.int.spec.ts',
  'src/reconciliation/rebuild/rebuildFailures.int.spec.ts',
  'src/reconciliation/rebuild/recoverRebuilds.int.spec.ts',
  'test/cluster/',
];

async function main(): Promise<number> {
  const log = (l: string) => process.stderr.write(`[cluster] ${l}\n`);
  const base = loadSettings({ TIDEMARK_ENV: 'test', ...process.env });
  const cluster = clickhouseClusterStack({ stackDir: stackPath(base), root: repoRoot, log });
  const started = Date.now();
  await Promise.all([stackUp(stackServices(base, log), log), cluster.up()]);
  log(`stack and ClickHouse cluster ${cluster.cluster} up in ${Date.now() - started} ms (${cluster.nodes.map((n) => n.name).join(', ')})`);
  const env = { ...process.env, CLICKHOUSE_URL: cluster.entryUrl, CLICKHOUSE_CLUSTER: CLICKHOUSE_CLUSTER };
  return runJestInt(['--runInBand', ...(process.argv.length > 2 ? process.argv.slice(2) : CLUSTER_SUITES)], env);
}

exitWith('test:cluster', main);
