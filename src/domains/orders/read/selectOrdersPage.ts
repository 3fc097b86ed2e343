// One page of latest orders matching a filter, newest first, keyset-paginated on (created_at_ms,
// order_id): both are immutable, so a page boundary never moves. The created_at condition (second
// precision) lets ClickHouse prune monthly partitions; created_at_ms is the exact bound. The caller's
// scope (its own customer_id, immutable) is one more WHERE condition: other customers' orders are
// never in a page, whatever the filter asks.
import type { OrderScope } from '../policy';
import { dateTime, str, uint } from '../../../infra/clickhouse/literal';
import type { ReadModelStore } from '../../contract/readModelStore';
import { toOrderView, type OrderView } from './orderView';
import { latestOrdersSql, type LatestOrderRow } from './latestOrders';
import { orderScopeSql } from './orderScopeSql';

export interface OrderFilter {
  customerId?: string;
  currency?: string;
  /** created at or after */
  from?: Date;
  /** created before */
  to?: Date;
}

export interface OrderCursor {
  createdAtMs: number;
  orderId: string;
}

export function orderWindowSql(from?: Date, to?: Date): string[] {
  const w: string[] = [];
  if (from)
    w.push(`created_at >= ${dateTime(new Date(Math.floor(from.getTime() / 1000) * 1000))}`, `created_at_ms >= ${uint(from.getTime())}`);
  if (to) w.push(`created_at <= ${dateTime(to)}`, `created_at_ms < ${uint(to.getTime())}`);
  return w;
}

export async function selectOrdersPage(
  store: ReadModelStore,
  database: string,
  scope: OrderScope,
  f: OrderFilter,
  first: number,
  after?: OrderCursor,
): Promise<{ nodes: OrderView[]; hasNextPage: boolean }> {
  const where = [...orderWindowSql(f.from, f.to), ...orderScopeSql(scope)];
  if (f.customerId !== undefined) where.push(`customer_id = ${str(f.customerId)}`);
  if (f.currency !== undefined) where.push(`currency = ${str(f.currency)}`);
  if (after)
    where.push(
      `(created_at_ms < ${uint(after.createdAtMs)} OR (created_at_ms = ${uint(after.createdAtMs)} AND order_id < ${str(after.orderId)}))`,
    );
  const rows = await store.select<LatestOrderRow>(
    'ordersPage',
    latestOrdersSql(database, where, `ORDER BY l_created_at_ms DESC, order_id DESC LIMIT ${uint(first + 1)}`),
  );
  return { nodes: rows.slice(0, first).map(toOrderView), hasNextPage: rows.length > first };
}
