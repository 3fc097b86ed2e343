// SQL (ClickHouse): how many rows reached a table since a moment (by `ingested_at_ms`, the projector's
// clock at insert): in all, inside one scope, and since a later moment. A rebuild's catch-up judges its
// rates by the first two and pays its rate limit with the third (the rows new since its last round). Physical rows, not aggregates: a
// correction is one row, and a row not yet merged away still had to be copied. No locking; one scan of
// the parts whose ingest time can match (ingested_at_ms is not in the ORDER BY key, so every part is
// read: a count of one column, cheap next to the INSERT ... SELECT it prices). Same SQL on 18.16 and
// current releases; on a cluster the Distributed table counts every shard.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident, uint } from '../../../infra/clickhouse/literal';
import type { Scope } from '../../scope';
import type { ProjectionMapping } from '../../target/projectionMapping';

export interface IngestedRows {
  total: number;
  inScope: number;
  /** Of `total`, those ingested at or after `newerThanMs`. */
  newer: number;
}

const ms = (t: number) => uint(Math.max(0, Math.floor(t)));

export async function rowsIngestedSince(
  ch: ClickHouseClient,
  database: string,
  table: string,
  m: ProjectionMapping,
  scope: Scope,
  sinceMs: number,
  newerThanMs: number,
): Promise<IngestedRows> {
  const rs = await ch.query({
    query: `SELECT count() AS total, countIf(${m.scopeWhere(scope)}) AS in_scope, countIf(ingested_at_ms >= ${ms(newerThanMs)}) AS newer
      FROM ${ident(database)}.${ident(table)} WHERE ingested_at_ms >= ${ms(sinceMs)}`,
    format: 'JSONEachRow',
  });
  const [row] = await rs.json<Record<'total' | 'in_scope' | 'newer', string | number>>();
  return { total: Number(row?.total ?? 0), inScope: Number(row?.in_scope ?? 0), newer: Number(row?.newer ?? 0) };
}
