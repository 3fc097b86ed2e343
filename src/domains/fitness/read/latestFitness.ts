// The latest state of each fitness result, as a SELECT over fitness_results: GROUP BY data_id with
// argMax(column, version) for every column, HAVING the latest row is not a tombstone. This is the one
// definition every fitness read and report builds on, so none of them can count physical versions.
//
// Why argMax and not FINAL: FINAL depends on the engine's merge-on-read and, on older releases,
// conditions moved to PREWHERE are applied before the versions are collapsed (an old non-deleted
// version could survive a filter on is_deleted). argMax makes the choice explicit. Conditions in
// `where` may only use columns that never change across versions (ids, grade, created_at), so
// filtering before grouping cannot separate the versions of one result. The select list is derived
// from the table's spec (latestColumns.ts).
import { FITNESS_RESULTS } from '../projection/fitnessResultsTable';
import { ident } from '../../../infra/clickhouse/literal';
import { columnWithRole } from '../../contract/projectionColumns';
import { latestSelectList } from '../../contract/latestColumns';

const FITNESS_LATEST_COLUMNS = latestSelectList(FITNESS_RESULTS);
const KEY = columnWithRole(FITNESS_RESULTS, 'key').name;

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
    FROM ${ident(database)}.${FITNESS_RESULTS.name}
    ${c.where.length ? `WHERE ${c.where.join(' AND ')}` : ''}
    GROUP BY ${KEY}
    HAVING ${['l_is_deleted = 0', ...(c.having ?? [])].join(' AND ')}
    ${c.tail ?? ''}`;
}

/** A row of the query as ClickHouse returns it (64-bit integers arrive quoted), by latestAlias(column). */
export type LatestFitnessRow = Record<string, unknown>;
