// Report over one campaign item (detect_id, project_id) and the caller's report scope: per school or
// grade (and unit, so metres never mix with centimetres), the count, min, max, sum and exact
// percentiles of the latest non-deleted results. The inner query is the latest-state selection
// (argMax by version, tombstones dropped, the scope on the latest version: fitnessScopeSql.ts), so a
// corrected result counts once with its corrected value and at its latest school, never once per
// version. A group with fewer distinct students than minGroupSize is masked inside the query (its
// statistics never leave ClickHouse) and only counted as suppressed. Percentiles use quantilesExact
// over Float64 (18.16 has no quantiles over Decimal); the exact variant returns actual result values,
// which print back exactly at 3 decimals. Sums stay Decimal.
import type { ReportAccess } from '../../../auth/access';
import type { FitnessScope } from '../policy';
import { ident, uint } from '../../../infra/clickhouse/literal';
import { decimalScale } from '../../contract/projectionColumns';
import { FITNESS_RESULTS } from '../projection/fitnessResultsTable';
import { averageDecimal, floatToDecimal, padDecimal } from '../../../shared/decimal';
import type { ReadModelStore } from '../../contract/readModelStore';
import { ifShown, suppressionSql, type ReportOf } from '../../contract/scopeSql';
import { fitnessScopeSql } from './fitnessScopeSql';

/** The result column's scale: report values are written at it. */
const RESULT = decimalScale(FITNESS_RESULTS, 'result');

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
  access: ReportAccess<FitnessScope>,
  q: { detectId: number; projectId: number; groupBy: FitnessGroupBy },
): Promise<ReportOf<FitnessReportGroup>> {
  const groupColumn = q.groupBy === 'SCHOOL' ? 'l_school_id' : 'l_grade';
  const campaign = [`detect_id = ${uint(q.detectId)}`, `project_id = ${uint(q.projectId)}`];
  const s = fitnessScopeSql(database, access.scope, campaign);
  const where = [...campaign, ...s.where];
  const sql = `SELECT ${groupColumn} AS group_key, l_unit AS r_unit,
      ${suppressionSql('uniqExact(l_user_id)', access.minGroupSize)},
      ${ifShown('count()', '0', 'n')},
      ${ifShown('toString(min(l_result))', "'0'", 'min_r')},
      ${ifShown('toString(max(l_result))', "'0'", 'max_r')},
      ${ifShown('toString(sum(l_result))', "'0'", 'sum_r')},
      ${ifShown('quantilesExact(0.5, 0.9, 0.99)(toFloat64(l_result))', 'emptyArrayFloat64()', 'qs')}
    FROM (
      SELECT data_id,
        argMax(school_id, version) AS l_school_id,
        argMax(user_id, version) AS l_user_id,
        argMax(grade, version) AS l_grade,
        argMax(unit, version) AS l_unit,
        argMax(result, version) AS l_result,
        argMax(is_deleted, version) AS l_is_deleted
      FROM ${ident(database)}.fitness_results
      WHERE ${where.join(' AND ')}
      GROUP BY data_id
      HAVING ${['l_is_deleted = 0', ...s.having].join(' AND ')}
    )
    GROUP BY group_key, r_unit
    ORDER BY group_key, r_unit`;
  const rows = await store.select<{
    group_key: string | number;
    r_unit: string;
    shown: number | string | boolean;
    n: string;
    min_r: string;
    max_r: string;
    sum_r: string;
    qs: number[];
  }>('fitnessReport', sql);
  const shown = rows.filter((r) => Number(r.shown) === 1);
  return {
    suppressedGroups: rows.length - shown.length,
    groups: shown.map((r) => ({
      key: Number(r.group_key),
      unit: r.r_unit,
      count: Number(r.n),
      min: padDecimal(r.min_r, RESULT),
      max: padDecimal(r.max_r, RESULT),
      average: averageDecimal(r.sum_r, Number(r.n), RESULT),
      p50: floatToDecimal(r.qs[0]!, RESULT),
      p90: floatToDecimal(r.qs[1]!, RESULT),
      p99: floatToDecimal(r.qs[2]!, RESULT),
    })),
  };
}
