// SQL: the authoritative orders of a window (optionally only some ids), as domain Orders, for replays
// and rebuilds.
//
// Locking: one plain non-locking SELECT (one MVCC snapshot); orders are immutable.
import type { Knex } from 'knex';
import { ORDER_COLUMNS, orderFromRow, type OrderRow } from '../../orderRow';
import type { Order } from '../../order';
import type { OrderWindowScope } from '../windowScope';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function readOrders(db: Knex, scope: OrderWindowScope, ids?: string[]): Promise<Order[]> {
  const uuids = ids?.filter((i) => UUID.test(i));
  if (uuids && uuids.length === 0) return [];
  const q = db('orders')
    .select([...ORDER_COLUMNS])
    .where('created_at', '>=', scope.from)
    .andWhere('created_at', '<', scope.to)
    .orderBy('created_at')
    .orderBy('order_id');
  if (uuids) q.whereIn('order_id', uuids);
  return ((await q) as OrderRow[]).map(orderFromRow);
}
