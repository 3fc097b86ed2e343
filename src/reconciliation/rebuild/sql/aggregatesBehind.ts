// SQL (ClickHouse): validation of the part of a rebuilt table that was copied rather than rebuilt.
// Counts aggregates outside the scope whose latest version in `reference` (ingested before the
// cutoff) is newer than their latest version in `candidate` (absent counts as version 0). Zero means
// every aggregate the reference held at the cutoff is in the candidate at the same or a newer version;
// the content of copied rows is the reference's own bytes (INSERT ... SELECT), so versions suffice.
// Latest-per-aggregate is immune to background merges (they only drop lower versions).
// No locking. Aliases (rv, cv) never shadow a column. Both joined subqueries are named (r, c): current
// releases refuse an unnamed one (ALIAS_REQUIRED, joined_subquery_requires_alias); 18.16 accepts either.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident, uint } from '../../../infra/clickhouse/literal';
import type { Scope } from '../../scope';
import type { ProjectionMapping } from '../../target/projectionMapping';

export async function aggregatesBehind(
  ch: ClickHouseClient,
  database: string,
  reference: string,
  candidate: string,
  m: ProjectionMapping,
  scope: Scope,
  cutoffMs: number,
): Promise<number> {
  const t = (name: string) => `${ident(database)}.${ident(name)}`;
  const outside = `NOT (${m.scopeWhere(scope)})`;
  const rs = await ch.query({
    query: `SELECT count() AS n FROM (
        SELECT ${m.idColumn}, max(version) AS rv FROM ${t(reference)}
         WHERE ${outside} AND ingested_at_ms < ${uint(Math.max(0, Math.floor(cutoffMs)))} GROUP BY ${m.idColumn}
      ) AS r ANY LEFT JOIN (
        SELECT ${m.idColumn}, max(version) AS cv FROM ${t(candidate)} WHERE ${outside} GROUP BY ${m.idColumn}
      ) AS c USING ${m.idColumn}
      WHERE cv < rv`,
    format: 'JSONEachRow',
  });
  const [row] = await rs.json<{ n: string | number }>();
  return Number(row?.n ?? 0);
}
