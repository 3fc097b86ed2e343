// Where the projections live (CLICKHOUSE_CLUSTER): one server, or a ClickHouse cluster. On a cluster
// every table `t` is two: `t_local`, a Replicated* table on every server holding its shard's rows
// (replicas of a shard copy each other through ZooKeeper), and `t`, a Distributed table over them that
// every reader and writer uses by the same name as on one server. So queries, inserts and most SQL are
// one code path; only DDL, mutations and renames act on the local tables, through this module.
//   Sharding key: the aggregate id, so every version of an aggregate is on one shard. Then latest-
//     version reads (argMax, GROUP BY id) are correct per shard, and subqueries over a projection may
//     run against the shard's own local table (distributed_product_mode=local, fromClickHouse.ts).
//   ZooKeeper path: /clickhouse/tables/{shard}/<database>/<table as created>. A table keeps its path
//     when renamed (a rebuild's shadow becomes the live table), so a new table never reuses one.
// Valid on 18.16 (no {database}/{table} macros, no Replicated database engine) and current releases.
import { ident, str } from './literal';

export interface ClickHouseLayout {
  /** The remote_servers cluster name, or null for one server. */
  readonly cluster: string | null;
}

export const SINGLE_SERVER: ClickHouseLayout = { cluster: null };

export function clickhouseLayout(s: { clickhouseCluster?: string }): ClickHouseLayout {
  return s.clickhouseCluster ? { cluster: s.clickhouseCluster } : SINGLE_SERVER;
}

/** ` ON CLUSTER <name>` on a cluster, nothing on one server. */
export function onCluster(l: ClickHouseLayout): string {
  return l.cluster ? ` ON CLUSTER ${ident(l.cluster)}` : '';
}

/** The table that stores the rows on each server: mutations and renames act on it. */
export function storageTable(l: ClickHouseLayout, table: string): string {
  return l.cluster ? `${table}_local` : table;
}

export interface TableSpec {
  name: string;
  /** The column list, without the parentheses. */
  columns: string;
  /** A MergeTree-family engine as on one server, e.g. `ReplacingMergeTree(version)` or `MergeTree`. */
  engine: string;
  partitionBy?: string;
  orderBy: string;
  /** How a cluster spreads rows over shards: the aggregate id (hashed), never a mutable column. */
  shardingKey: string;
}

/** `ReplacingMergeTree(version)` → `ReplicatedReplacingMergeTree('<path>', '{replica}', version)`. */
export function replicatedEngine(engine: string, zookeeperPath: string): string {
  const m = /^\s*([A-Za-z]*MergeTree)\s*(?:\((.*)\))?\s*$/s.exec(engine);
  if (!m) throw new Error(`not a MergeTree-family engine: ${engine}`);
  const args = [str(zookeeperPath), `'{replica}'`, ...(m[2]?.trim() ? [m[2].trim()] : [])];
  return `Replicated${m[1]}(${args.join(', ')})`;
}

export function zookeeperPath(database: string, table: string): string {
  return `/clickhouse/tables/{shard}/${database}/${table}`;
}

function q(database: string, table: string): string {
  return `${ident(database)}.${ident(table)}`;
}

export function createTableStatements(l: ClickHouseLayout, database: string, t: TableSpec): string[] {
  const keys = `${t.partitionBy ? `\n    PARTITION BY ${t.partitionBy}` : ''}\n    ORDER BY ${t.orderBy}`;
  if (!l.cluster) return [`CREATE TABLE IF NOT EXISTS ${q(database, t.name)} (\n${t.columns}\n    ) ENGINE = ${t.engine}${keys}`];
  const local = storageTable(l, t.name);
  return [
    `CREATE TABLE IF NOT EXISTS ${q(database, local)}${onCluster(l)} (\n${t.columns}\n    ) ` +
      `ENGINE = ${replicatedEngine(t.engine, zookeeperPath(database, local))}${keys}`,
    distributedStatement(l, database, t.name, local, t.shardingKey),
  ];
}

/** The Distributed table `table` over the local tables `local` (it resolves `local` by name per query). */
export function distributedStatement(l: ClickHouseLayout, database: string, table: string, local: string, shardingKey: string): string {
  return (
    `CREATE TABLE IF NOT EXISTS ${q(database, table)}${onCluster(l)} AS ${q(database, local)} ` +
    `ENGINE = Distributed(${ident(l.cluster!)}, ${ident(database)}, ${ident(local)}, ${shardingKey})`
  );
}

/**
 * ALTER TABLE ... ADD COLUMN (drop: DROP COLUMN) on the table. On a cluster the local tables are altered
 * ON CLUSTER (every replica), and the Distributed table over them is created again: an ALTER ON CLUSTER
 * of a Distributed table is refused where a shard has replicas ("isn't replicated, but shard is
 * replicated"), and a Distributed table holds no rows, so dropping and recreating it loses nothing and
 * picks up the new columns (`AS local`).
 */
export function alterColumnStatements(l: ClickHouseLayout, database: string, table: string, change: string, shardingKey: string): string[] {
  if (!l.cluster) return [`ALTER TABLE ${q(database, table)} ${change}`];
  const local = storageTable(l, table);
  return [
    `ALTER TABLE ${q(database, local)}${onCluster(l)} ${change}`,
    `DROP TABLE IF EXISTS ${q(database, table)}${onCluster(l)}`,
    distributedStatement(l, database, table, local, shardingKey),
  ];
}

export function dropTableStatements(l: ClickHouseLayout, database: string, table: string): string[] {
  const drop = (t: string) => `DROP TABLE IF EXISTS ${q(database, t)}${onCluster(l)}`;
  return l.cluster ? [drop(table), drop(storageTable(l, table))] : [drop(table)];
}

export function createDatabaseStatement(l: ClickHouseLayout, database: string): string {
  return `CREATE DATABASE IF NOT EXISTS ${ident(database)}${onCluster(l)}`;
}

export function dropDatabaseStatement(l: ClickHouseLayout, database: string): string {
  return `DROP DATABASE IF EXISTS ${ident(database)}${onCluster(l)}`;
}
