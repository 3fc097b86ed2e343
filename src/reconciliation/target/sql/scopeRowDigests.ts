// SQL: every physical row of a scope in a projection table with its version and canonical digest
// (not only the latest): a rebuild quarantines each row whose content differs from the authoritative
// state at the same version.
//
// No locking in ClickHouse; the read sees the parts present when it starts.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident } from '../../../infra/clickhouse/literal';
import { clickhouseCells } from '../../../domains/contract/sqlCells';
import type { Scope } from '../../scope';
import type { ProjectionMapping } from '../projectionMapping';

export async function scopeRowDigests(
  ch: ClickHouseClient,
  database: string,
  table: string,
  m: ProjectionMapping,
  scope: Scope,
): Promise<{ id: string; version: number; digest: string }[]> {
  const rs = await ch.query({
    query: `SELECT DISTINCT toString(${m.idColumn}) AS id, version AS v, ${clickhouseCells.digest(m.line('CONTENT'))} AS d
            FROM ${ident(database)}.${ident(table)} WHERE ${m.scopeWhere(scope)}`,
    format: 'JSONEachRow',
  });
  return (await rs.json<{ id: string; v: string | number; d: string }>()).map((r) => ({ id: r.id, version: Number(r.v), digest: r.d }));
}
