// SQL: the latest state of each aggregate of a scope (or some buckets / ids) in a projection table:
// its highest version, every distinct digest among the rows at that version, the deletion flag and
// the newest source commit time. Lines only for the few rows whose differing fields are named.
//
// No locking in ClickHouse. Aliases (v, ds, del, commit_ms, ls, d, line) never shadow a column.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident } from '../../../infra/clickhouse/literal';
import type { CompareLevel } from '../../../domains/contract/canonicalFields';
import { clickhouseCells } from '../../../domains/contract/sqlCells';
import type { TargetState } from '../../model';
import type { StateFilter } from '../../../domains/contract/sourceReader';
import type { Scope } from '../../scope';
import { whereOf, type ProjectionMapping } from '../projectionMapping';
import { latestRowsWhere } from './latestRows';

export async function targetStates(
  ch: ClickHouseClient,
  database: string,
  table: string,
  m: ProjectionMapping,
  scope: Scope,
  level: CompareLevel,
  filter: StateFilter,
): Promise<TargetState[]> {
  const where = latestRowsWhere(m, database, table, whereOf(m, scope, filter));
  const line = m.line(level);
  const rs = await ch.query({
    query: `SELECT toString(${m.idColumn}) AS id, version AS v, groupUniqArray(d) AS ds, max(is_deleted) AS del,
                   max(source_commit_ms) AS commit_ms${filter.withLines ? ', groupUniqArray(line) AS ls' : ''}
      FROM (SELECT ${m.idColumn}, version, is_deleted, source_commit_ms, ${clickhouseCells.digest(line)} AS d${filter.withLines ? `, ${line} AS line` : ''}
            FROM ${ident(database)}.${ident(table)} WHERE ${where})
      GROUP BY ${m.idColumn}, version`,
    format: 'JSONEachRow',
  });
  const rows = await rs.json<{ id: string; v: number | string; ds: string[]; del: number; commit_ms: number | string; ls?: string[] }>();
  return rows.map((r) => {
    const digests = [...r.ds].sort();
    return {
      id: r.id,
      version: Number(r.v),
      isDeleted: Number(r.del) === 1,
      digest: digests[0]!,
      digests,
      commitMs: Number(r.commit_ms),
      ...(r.ls ? { lines: r.ls } : {}),
    };
  });
}
