// SQL (ClickHouse DDL): the shadow table of a rebuild and the switch of readers to it.
//   createShadow  one server: CREATE TABLE shadow AS live (same columns, engine, ORDER BY, PARTITION BY).
//                 A cluster (infra/clickhouse/layout.ts): the shadow's local tables ON CLUSTER with the
//                 live local table's engine but a ZooKeeper path of their own (copying the live path
//                 would make them replicas of the live table), and a Distributed shadow over them.
//   swapTables    EXCHANGE TABLES where the server supports it (current releases, Atomic databases:
//                 one atomic step); otherwise (18.16, Ordinary databases) one RENAME statement with
//                 two renames, live -> retired and shadow -> live. ClickHouse holds the tables' DDL
//                 locks for the whole statement and waits for running INSERTs to finish, so every
//                 insert lands in exactly one of the two tables; a reader resolving the name in the
//                 instant between the two renames may get UNKNOWN_TABLE and must retry. On a cluster
//                 the local tables are swapped ON CLUSTER (the Distributed live table resolves its
//                 local table by name per query, so readers follow), and the retired data gets a
//                 Distributed table of its own for the catch-up copy and the check against it.
//   distributeRetired  the cluster's Distributed tables after a RENAME swap (also run by recovery).
//   dropTable     DROP TABLE IF EXISTS (shadow of a failed rebuild, retired table after verification).
// Names are generated (prefix + rebuild id) and pass through ident().
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import {
  distributedStatement,
  dropTableStatements,
  onCluster,
  storageTable,
  zookeeperPath,
  type ClickHouseLayout,
} from '../../../infra/clickhouse/layout';
import { ident, str } from '../../../infra/clickhouse/literal';

const q = (db: string, t: string) => `${ident(db)}.${ident(t)}`;

async function engineOf(ch: ClickHouseClient, database: string, table: string): Promise<string> {
  const rs = await ch.query({
    query: `SELECT engine_full FROM system.tables WHERE database = ${str(database)} AND name = ${str(table)}`,
    format: 'JSONEachRow',
  });
  const [row] = await rs.json<{ engine_full: string }>();
  if (!row) throw new Error(`table ${database}.${table} does not exist`);
  return row.engine_full;
}

/** The sharding key of a Distributed table: its engine's fourth argument. */
function shardingKeyOf(engineFull: string): string {
  const m = /^Distributed\(([^,]+),([^,]+),([^,]+),(.*)\)\s*$/s.exec(engineFull.trim());
  if (!m) throw new Error(`not a Distributed table with a sharding key: ${engineFull}`);
  return m[4]!.trim();
}

export async function createShadow(
  ch: ClickHouseClient,
  l: ClickHouseLayout,
  database: string,
  live: string,
  shadow: string,
): Promise<void> {
  if (!l.cluster) return void (await ch.command({ query: `CREATE TABLE ${q(database, shadow)} AS ${q(database, live)}` }));
  const [liveLocal, shadowLocal] = [storageTable(l, live), storageTable(l, shadow)];
  // The first argument of a Replicated* engine is its ZooKeeper path (a quoted literal).
  const engine = (await engineOf(ch, database, liveLocal)).replace(
    /^(Replicated\w+\()\s*'(?:[^'\\]|\\.)*'/,
    `$1${str(zookeeperPath(database, shadowLocal))}`,
  );
  await ch.command({ query: `CREATE TABLE ${q(database, shadowLocal)}${onCluster(l)} AS ${q(database, liveLocal)} ENGINE = ${engine}` });
  const key = shardingKeyOf(await engineOf(ch, database, live));
  await ch.command({ query: distributedStatement(l, database, shadow, shadowLocal, key) });
}

/** Swaps; returns the name under which the previous live data can now be read. */
export async function swapTables(
  ch: ClickHouseClient,
  l: ClickHouseLayout,
  database: string,
  live: string,
  shadow: string,
  retired: string,
): Promise<string> {
  const [liveLocal, shadowLocal, retiredLocal] = [live, shadow, retired].map((t) => storageTable(l, t)) as [string, string, string];
  try {
    await ch.command({ query: `EXCHANGE TABLES ${q(database, liveLocal)} AND ${q(database, shadowLocal)}${onCluster(l)}` });
    return shadow; // on a cluster the Distributed shadow now reads the previous live data
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    // 62 SYNTAX_ERROR (18.16), 48 NOT_IMPLEMENTED (Ordinary database): fall back to RENAME.
    if (code !== '62' && code !== '48' && !/Syntax error|not supported|NOT_IMPLEMENTED/i.test(String((err as Error).message))) throw err;
  }
  await ch.command({
    query: `RENAME TABLE ${q(database, liveLocal)} TO ${q(database, retiredLocal)}, ${q(database, shadowLocal)} TO ${q(database, liveLocal)}${onCluster(l)}`,
  });
  await distributeRetired(ch, l, database, live, shadow, retired);
  return retired;
}

/**
 * After a RENAME swap on a cluster: the shadow's Distributed table (over a local table that is now the
 * live one) dropped, and a Distributed table over the retired local tables. Idempotent, so recovery
 * (recoverRebuilds.ts) may run it again after a crash between the RENAME and these. Nothing on one server.
 */
export async function distributeRetired(
  ch: ClickHouseClient,
  l: ClickHouseLayout,
  database: string,
  live: string,
  shadow: string,
  retired: string,
): Promise<void> {
  if (!l.cluster) return;
  const key = shardingKeyOf(await engineOf(ch, database, live));
  await ch.command({ query: `DROP TABLE IF EXISTS ${q(database, shadow)}${onCluster(l)}` });
  await ch.command({ query: distributedStatement(l, database, retired, storageTable(l, retired), key) });
}

export async function dropTable(ch: ClickHouseClient, l: ClickHouseLayout, database: string, table: string): Promise<void> {
  for (const query of dropTableStatements(l, database, table)) await ch.command({ query });
}
