// Latest state of the given orders (one query per DataLoader batch); absent ids are not projected yet
// (or deleted). order_id is the ORDER BY key. Values only through the literal formatter.
import { list, str } from '../../../infra/clickhouse/literal';
import type { ReadModelStore } from '../readModelStore';
import { toOrderView, type OrderView } from '../views';
import { latestOrdersSql, type LatestOrderRow } from './latestOrders';

export async function selectOrdersByIds(store: ReadModelStore, database: string, orderIds: string[]): Promise<OrderView[]> {
  if (orderIds.length === 0) return [];
  const rows = await store.select<LatestOrderRow>(
    'ordersByIds',
    latestOrdersSql(database, [`order_id IN ${list([...new Set(orderIds)], str)}`]),
  );
  return rows.map(toOrderView);
}
