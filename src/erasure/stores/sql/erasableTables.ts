// SQL (ClickHouse): every table that may hold rows of a table's aggregates: the table itself, a
// rebuild's shadows and retired tables of it (named `<table>__<what>_<rebuild id>`:
// reconciliation/rebuild/rebuildRun.ts, recoverRebuilds.ts), found by name in system.tables so a shadow
// left by a failed rebuild or a retired table not yet dropped is erased too.
//   storage   where the rows are and mutations act: the MergeTree-family tables (on a cluster, the
//             `_local` ones, infra/clickhouse/layout.ts; ON CLUSTER reaches every server).
//   readable  what a count reads: the same on one server; on a cluster the Distributed tables over them
//             (a local table counts only the shard of the server the client is connected to).
// One read of system.tables; no locking. substring() rather than startsWith (not in 18.16).
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { storageTable, type ClickHouseLayout } from '../../../infra/clickhouse/layout';
import { str, uint } from '../../../infra/clickhouse/literal';

/** Where a domain's projection keeps its rows, by column name. */
export interface ErasableProjection {
  table: string;
  aggregateIdColumn: string;
  /** The column naming the subject (fitness: user_id), when the table has one. */
  subjectColumn?: string;
  /** The source's write time of a row (epoch ms), with subjectColumn: rows before job.startedAt are the request's. */
  writtenAtMsColumn?: string;
  /**
   * Columns naming who wrote a row (orders: changed_by), with subjectColumn: where one holds the subject's
   * id, a pseudonymisation replaces it too (DomainErasure.writerFields). A table without one is skipped.
   */
  writerColumns?: string[];
}

export interface ErasableTables {
  storage: string[];
  readable: string[];
}

export async function erasableTables(ch: ClickHouseClient, l: ClickHouseLayout, database: string, table: string): Promise<ErasableTables> {
  const prefix = `${table}__`;
  const rs = await ch.query({
    query:
      `SELECT name, engine FROM system.tables WHERE database = ${str(database)} AND (name IN (${str(table)}, ` +
      `${str(storageTable(l, table))}) OR substring(name, 1, ${uint(prefix.length)}) = ${str(prefix)}) ORDER BY name`,
    format: 'JSONEachRow',
  });
  const rows = await rs.json<{ name: string; engine: string }>();
  const storage = rows.filter((r) => /MergeTree$/.test(r.engine)).map((r) => r.name);
  const readable = l.cluster ? rows.filter((r) => r.engine === 'Distributed').map((r) => r.name) : storage;
  return { storage, readable };
}

/** The type of a column of a table (to write its id literals in that type), or undefined when it has none. */
export async function columnType(ch: ClickHouseClient, database: string, table: string, column: string): Promise<string | undefined> {
  const rs = await ch.query({
    query: `SELECT type FROM system.columns WHERE database = ${str(database)} AND table = ${str(table)} AND name = ${str(column)}`,
    format: 'JSONEachRow',
  });
  return (await rs.json<{ type: string }>())[0]?.type;
}
