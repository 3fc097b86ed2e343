// Analyst report over orders created in [from, to): per day (UTC) or per currency, the number of
// orders, units and the exact total, over the latest non-deleted state of each order (argMax by
// version inside, so a re-delivered order counts once). Totals are never summed across currencies:
// a DAY report has one row per (day, currency).
import { ident, uint } from '../../../infra/clickhouse/literal';
import { averageDecimal, padDecimal } from '../../../shared/decimal';
import type { ReadModelStore } from '../readModelStore';
import { orderWindowSql } from './selectOrdersPage';

export type OrderGroupBy = 'DAY' | 'CURRENCY';

export interface OrderReportGroup {
  /** 'YYYY-MM-DD' (DAY) or the currency code (CURRENCY). */
  key: string;
  currency: string;
  orderCount: number;
  itemCount: number;
  total: string;
  averageTotal: string;
}

export async function selectOrderReport(
  store: ReadModelStore,
  database: string,
  from: Date,
  to: Date,
  groupBy: OrderGroupBy,
): Promise<OrderReportGroup[]> {
  const key = groupBy === 'DAY' ? 'toString(toDate(l_created_at))' : 'l_currency';
  const sql = `SELECT ${key} AS group_key, l_currency AS r_currency, count() AS n, toString(sum(l_item_count)) AS units, toString(sum(l_total)) AS sum_total
    FROM (
      SELECT order_id,
        argMax(currency, version) AS l_currency,
        argMax(total, version) AS l_total,
        argMax(item_count, version) AS l_item_count,
        argMax(created_at, version) AS l_created_at,
        argMax(is_deleted, version) AS l_is_deleted
      FROM ${ident(database)}.orders
      WHERE ${orderWindowSql(from, to).join(' AND ')}
      GROUP BY order_id
      HAVING l_is_deleted = 0
    )
    GROUP BY group_key, r_currency
    ORDER BY group_key, r_currency
    LIMIT ${uint(100000)}`;
  const rows = await store.select<{ group_key: string; r_currency: string; n: string; units: string; sum_total: string }>(
    'orderReport',
    sql,
  );
  return rows.map((r) => ({
    key: r.group_key,
    currency: r.r_currency,
    orderCount: Number(r.n),
    itemCount: Number(r.units),
    total: padDecimal(r.sum_total, 4),
    averageTotal: averageDecimal(r.sum_total, Number(r.n), 4),
  }));
}
