// Latest state of the given orders within the caller's scope (one query per DataLoader batch); absent
// ids are not projected yet, deleted, or another customer's: the caller cannot tell them apart.
// order_id is the ORDER BY key; customer_id is immutable, so the scope is a plain WHERE condition.
// Values only through the literal formatter.
import type { OrderScope } from '../policy';
import { list, str } from '../../../infra/clickhouse/literal';
import type { ReadModelStore } from '../../contract/readModelStore';
import { toOrderView, type OrderView } from './orderView';
import { latestOrdersSql, type LatestOrderRow } from './latestOrders';
import { orderScopeSql } from './orderScopeSql';

export async function selectOrdersByIds(
  store: ReadModelStore,
  database: string,
  scope: OrderScope,
  orderIds: string[],
): Promise<OrderView[]> {
  if (orderIds.length === 0) return [];
  const rows = await store.select<LatestOrderRow>(
    'ordersByIds',
    latestOrdersSql(database, [`order_id IN ${list([...new Set(orderIds)], str)}`, ...orderScopeSql(scope)]),
  );
  return rows.map(toOrderView);
}
