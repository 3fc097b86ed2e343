// The latest state of each fitness result, as a SELECT over fitness_results: GROUP BY data_id with
// argMax(column, version) for every column, HAVING the latest row is not a tombstone. This is the one
// definition every fitness read and report builds on, so none of them can count physical versions.
//
// Why argMax and not FINAL: FINAL depends on the engine's merge-on-read and, on older releases,
// conditions moved to PREWHERE are applied before the versions are collapsed (an old non-deleted
// version could survive a filter on is_deleted). argMax makes the choice explicit. Conditions in
// `where` may only use columns that never change across versions (ids, grade, created_at), so
// filtering before grouping cannot separate the versions of one result. Aliases are prefixed (l_)
// so none shadows a column used inside an aggregate (ClickHouse would resolve `version` to the alias).
import { ident } from '../../../infra/clickhouse/literal';

export const FITNESS_LATEST_COLUMNS = `
  data_id,
  argMax(detect_id, version) AS l_detect_id,
  argMax(user_id, version) AS l_user_id,
  argMax(project_id, version) AS l_project_id,
  argMax(school_id, version) AS l_school_id,
  argMax(grade, version) AS l_grade,
  toString(argMax(result, version)) AS l_result,
  argMax(unit, version) AS l_unit,
  max(version) AS l_version,
  argMax(is_deleted, version) AS l_is_deleted,
  argMax(created_at_ms, version) AS l_created_at_ms,
  argMax(source_commit_ms, version) AS l_source_commit_ms,
  argMax(ingested_at_ms, version) AS l_ingested_at_ms,
  argMax(shard, version) AS l_shard`;

/** Conditions of a latest-state query, all SQL built only from literal-formatted values. */
export interface LatestConditions {
  /** Over immutable columns only (evaluated on every physical version). */
  where: string[];
  /** Over the latest version's values (the l_ aliases). */
  having?: string[];
  /** ORDER BY / LIMIT. */
  tail?: string;
}

export function latestFitnessSql(database: string, c: LatestConditions): string {
  return `SELECT ${FITNESS_LATEST_COLUMNS}
    FROM ${ident(database)}.fitness_results
    ${c.where.length ? `WHERE ${c.where.join(' AND ')}` : ''}
    GROUP BY data_id
    HAVING ${['l_is_deleted = 0', ...(c.having ?? [])].join(' AND ')}
    ${c.tail ?? ''}`;
}

/** A row of latestFitnessSql as ClickHouse returns it (64-bit integers arrive quoted). */
export interface LatestFitnessRow {
  data_id: string;
  l_detect_id: string;
  l_user_id: string;
  l_project_id: string;
  l_school_id: string;
  l_grade: number;
  l_result: string;
  l_unit: string;
  l_version: string;
  l_created_at_ms: string;
  l_source_commit_ms: string;
  l_ingested_at_ms: string;
  l_shard: number;
}
