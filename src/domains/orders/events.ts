// The OrderPlaced event, built from an order alone. The direct path, the fallback row and the
// reconciler all call this one function, so a rebuilt event is byte-identical to the original: same
// eventId (order-placed:{orderId}:v1), same key, same value.
import type { DomainEvent } from '../../publication/event';
import type { Order } from './order';

export const ORDER_PLACED = 'OrderPlaced';

export function orderPlacedEventId(orderId: string): string {
  return `order-placed:${orderId}:v1`;
}

/** The order on the wire (eventContract.ts); schema version 2 adds changedBy and channel. */
export interface OrderPlacedData extends Record<string, unknown> {
  orderId: string;
  customerId: string;
  currency: string;
  items: { sku: string; quantity: number; unitPrice: string }[];
  total: string;
  itemCount: number;
  createdAt: string;
  changedBy?: string | null;
  channel?: string | null;
}

/** The event of an order in `schemaVersion` (what every live reader reads: src/publication/schemaVersions.ts). */
export function orderPlacedEvent(order: Order, schemaVersion: number): DomainEvent<OrderPlacedData> {
  const v1 = {
    orderId: order.orderId,
    customerId: order.customerId,
    currency: order.currency,
    items: order.items.map((l) => ({ sku: l.sku, quantity: l.quantity, unitPrice: l.unitPrice })),
    total: order.total,
    itemCount: order.itemCount,
    createdAt: order.createdAt.toISOString(),
  };
  return {
    eventId: orderPlacedEventId(order.orderId),
    domain: 'orders',
    type: ORDER_PLACED,
    aggregateId: order.orderId,
    version: 1,
    schemaVersion,
    isDeleted: false,
    occurredAt: order.createdAt,
    shard: 0,
    data: schemaVersion >= 2 ? { ...v1, changedBy: order.changedBy, channel: order.channel ?? null } : v1,
  };
}
