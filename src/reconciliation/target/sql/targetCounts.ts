// SQL: logical counts of a scope in a projection table: aggregates whose latest version is not a
// tombstone, per segment. argMax picks the latest version's values ("logical", never raw physical
// rows: a corrected result counted twice would hide a missing one).
//
// No locking in ClickHouse; a SELECT reads the parts that exist when it starts.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident } from '../../../infra/clickhouse/literal';
import type { Scope } from '../../scope';
import type { ProjectionMapping } from '../projectionMapping';

export async function targetCounts(
  ch: ClickHouseClient,
  database: string,
  table: string,
  m: ProjectionMapping,
  scope: Scope,
): Promise<Map<string, number>> {
  const rs = await ch.query({
    query: `SELECT seg, count() AS n FROM (
        SELECT ${m.idColumn}, argMax(${m.segment}, version) AS seg, argMax(is_deleted, version) AS del
        FROM ${ident(database)}.${ident(table)} WHERE ${m.scopeWhere(scope)} GROUP BY ${m.idColumn}
      ) WHERE del = 0 GROUP BY seg`,
    format: 'JSONEachRow',
  });
  const rows = await rs.json<{ seg: string; n: string | number }>();
  return new Map(rows.map((r) => [String(r.seg), Number(r.n)]));
}
