// Report groups as chart rows. Decimals arrive as exact strings; charts need numbers, so they are
// converted here for drawing only: the tables beside the charts show the exact strings.
import type { ConsoleFitnessReportQuery, ConsoleOrderReportQuery } from '../api/generated';

type FitnessGroup = ConsoleFitnessReportQuery['fitnessReport']['groups'][number];
type OrderGroup = ConsoleOrderReportQuery['orderReport']['groups'][number];

export interface FitnessChartRow {
  label: string;
  count: number;
  min: number;
  p50: number;
  p90: number;
  max: number;
  average: number;
}

export function fitnessChartRows(groups: readonly FitnessGroup[], groupBy: 'SCHOOL' | 'GRADE'): FitnessChartRow[] {
  const units = new Set(groups.map((g) => g.unit));
  return groups.map((g) => ({
    label: `${groupBy === 'SCHOOL' ? 'school' : 'grade'} ${g.key}${units.size > 1 ? ` (${g.unit})` : ''}`,
    count: g.count,
    min: Number(g.min),
    p50: Number(g.p50),
    p90: Number(g.p90),
    max: Number(g.max),
    average: Number(g.average),
  }));
}

export interface OrderChartRow {
  label: string;
  total: number;
  orderCount: number;
}

/** Totals are never summed across currencies: a DAY (CHANNEL) row is one (day or channel, currency) pair. */
export function orderChartRows(groups: readonly OrderGroup[], groupBy: 'DAY' | 'CURRENCY' | 'CHANNEL'): OrderChartRow[] {
  return groups.map((g) => ({
    label: groupBy === 'CURRENCY' ? g.currency : `${g.key} ${g.currency}`,
    total: Number(g.total),
    orderCount: g.orderCount,
  }));
}
