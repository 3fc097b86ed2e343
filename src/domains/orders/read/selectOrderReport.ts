// Report over orders created in [from, to) and the caller's report scope: per day (UTC), per
// currency or per sales channel (upper case as GraphQL names it, 'UNKNOWN' for orders whose event did
// not say: schema version 1, or no channel given), the number of orders, units and the exact total, over the latest non-deleted state of
// each order (argMax by version inside, so a re-delivered order counts once). Totals are never summed
// across currencies: a DAY report has one row per (day, currency). A group with fewer distinct
// customers than minGroupSize is masked inside the query and only counted (contract/scopeSql.ts).
import type { ReportAccess } from '../../../auth/access';
import type { OrderScope } from '../policy';
import { ident, uint } from '../../../infra/clickhouse/literal';
import { decimalScale } from '../../contract/projectionColumns';
import { ORDERS } from '../projection/ordersTable';
import { averageDecimal, padDecimal } from '../../../shared/decimal';
import type { ReadModelStore } from '../../contract/readModelStore';
import { orderWindowSql } from './selectOrdersPage';
import { ifShown, suppressionSql, type ReportOf } from '../../contract/scopeSql';
import { orderScopeSql } from './orderScopeSql';

/** The total column's scale: report amounts are written at it. */
const MONEY = decimalScale(ORDERS, 'total');

export type OrderGroupBy = 'DAY' | 'CURRENCY' | 'CHANNEL';

/** The group key of each grouping, over the latest state's l_ columns. */
const GROUP_KEYS: Record<OrderGroupBy, string> = {
  DAY: 'toString(toDate(l_created_at))',
  CURRENCY: 'l_currency',
  CHANNEL: "if(l_channel = '', 'UNKNOWN', upper(l_channel))",
};

export interface OrderReportGroup {
  /** 'YYYY-MM-DD' (DAY), the currency code (CURRENCY) or the channel (CHANNEL: 'WEB', ..., 'UNKNOWN'). */
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
  access: ReportAccess<OrderScope>,
  q: { from: Date; to: Date; groupBy: OrderGroupBy },
): Promise<ReportOf<OrderReportGroup>> {
  const key = GROUP_KEYS[q.groupBy];
  const where = [...orderWindowSql(q.from, q.to), ...orderScopeSql(access.scope)];
  const sql = `SELECT ${key} AS group_key, l_currency AS r_currency,
      ${suppressionSql('uniqExact(l_customer_id)', access.minGroupSize)},
      ${ifShown('count()', '0', 'n')},
      ${ifShown('toString(sum(l_item_count))', "'0'", 'units')},
      ${ifShown('toString(sum(l_total))', "'0'", 'sum_total')}
    FROM (
      SELECT order_id,
        argMax(customer_id, version) AS l_customer_id,
        argMax(currency, version) AS l_currency,
        argMax(total, version) AS l_total,
        argMax(item_count, version) AS l_item_count,
        argMax(created_at, version) AS l_created_at,
        argMax(channel, version) AS l_channel,
        argMax(is_deleted, version) AS l_is_deleted
      FROM ${ident(database)}.orders
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      GROUP BY order_id
      HAVING l_is_deleted = 0
    )
    GROUP BY group_key, r_currency
    ORDER BY group_key, r_currency
    LIMIT ${uint(100000)}`;
  const rows = await store.select<{
    group_key: string;
    r_currency: string;
    shown: number | string | boolean;
    n: string;
    units: string;
    sum_total: string;
  }>('orderReport', sql);
  const shown = rows.filter((r) => Number(r.shown) === 1);
  return {
    suppressedGroups: rows.length - shown.length,
    groups: shown.map((r) => ({
      key: r.group_key,
      currency: r.r_currency,
      orderCount: Number(r.n),
      itemCount: Number(r.units),
      total: padDecimal(r.sum_total, MONEY),
      averageTotal: averageDecimal(r.sum_total, Number(r.n), MONEY),
    })),
  };
}
