// Analyst report over one campaign item (detect_id, project_id): per school or grade (and unit, so
// metres never mix with centimetres), the count, min, max, sum and exact percentiles of the latest
// non-deleted results. The inner query is the latest-state selection (argMax by version, tombstones
// dropped), so a corrected result counts once with its corrected value, never once per version.
// Percentiles use quantilesExact over Float64 (18.16 has no quantiles over Decimal); the exact
// variant returns actual result values, which print back exactly at 3 decimals. Sums stay Decimal.
import { uint } from '../../../infra/clickhouse/literal';
import { ident } from '../../../infra/clickhouse/literal';
import { averageDecimal, floatToDecimal, padDecimal } from '../../../shared/decimal';
import type { ReadModelStore } from '../readModelStore';

export type FitnessGroupBy = 'SCHOOL' | 'GRADE';

export interface FitnessReportGroup {
  key: number;
  unit: string;
  count: number;
  min: string;
  max: string;
  average: string;
  p50: string;
  p90: string;
  p99: string;
}

export async function selectFitnessReport(
  store: ReadModelStore,
  database: string,
  detectId: number,
  projectId: number,
  groupBy: FitnessGroupBy,
): Promise<FitnessReportGroup[]> {
  const groupColumn = groupBy === 'SCHOOL' ? 'l_school_id' : 'l_grade';
  const sql = `SELECT ${groupColumn} AS group_key, l_unit AS r_unit, count() AS n,
      toString(min(l_result)) AS min_r, toString(max(l_result)) AS max_r, toString(sum(l_result)) AS sum_r,
      quantilesExact(0.5, 0.9, 0.99)(toFloat64(l_result)) AS qs
    FROM (
      SELECT data_id,
        argMax(school_id, version) AS l_school_id,
        argMax(grade, version) AS l_grade,
        argMax(unit, version) AS l_unit,
        argMax(result, version) AS l_result,
        argMax(is_deleted, version) AS l_is_deleted
      FROM ${ident(database)}.fitness_results
      WHERE detect_id = ${uint(detectId)} AND project_id = ${uint(projectId)}
      GROUP BY data_id
      HAVING l_is_deleted = 0
    )
    GROUP BY group_key, r_unit
    ORDER BY group_key, r_unit`;
  const rows = await store.select<{
    group_key: string | number;
    r_unit: string;
    n: string;
    min_r: string;
    max_r: string;
    sum_r: string;
    qs: number[];
  }>('fitnessReport', sql);
  return rows.map((r) => ({
    key: Number(r.group_key),
    unit: r.r_unit,
    count: Number(r.n),
    min: padDecimal(r.min_r, 3),
    max: padDecimal(r.max_r, 3),
    average: averageDecimal(r.sum_r, Number(r.n), 3),
    p50: floatToDecimal(r.qs[0]!, 3),
    p90: floatToDecimal(r.qs[1]!, 3),
    p99: floatToDecimal(r.qs[2]!, 3),
  }));
}
