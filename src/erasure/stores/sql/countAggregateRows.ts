// SQL (ClickHouse): how many physical rows of a table match an erasure's condition (every version,
// merged or not: no FINAL, no argMax; a trace is a trace). Read-only, no locking. On a cluster the
// caller passes the Distributed tables, so every shard is counted. The condition comes from literal.ts.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident } from '../../../infra/clickhouse/literal';

export async function countWhere(ch: ClickHouseClient, database: string, table: string, where: string): Promise<number> {
  const rs = await ch.query({
    query: `SELECT count() AS n FROM ${ident(database)}.${ident(table)} WHERE ${where}`,
    format: 'JSONEachRow',
  });
  return Number((await rs.json<{ n: string | number }>())[0]?.n ?? 0);
}
