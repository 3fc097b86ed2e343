// The OrderPlaced event, built from an order alone. The direct path, the fallback row and the
// reconciler all call this one function, so a rebuilt event is byte-identical to the original: same
// eventId (order-placed:{orderId}:v1), same key, same value.
import type { DomainEvent } from '../../publication/event';
import type { Order } from './order';

export const ORDER_PLACED = 'OrderPlaced';

export function orderPlacedEventId(orderId: string): string {
  return `order-placed:${orderId}:v1`;
}

export interface OrderPlacedData extends Record<string, unknown> {
  orderId: string;
  customerId: string;
  currency: string;
  items: { sku: string; quantity: number; unitPrice: string }[];
  total: string;
  itemCount: number;
  createdAt: string;
}

export function orderPlacedEvent(order: Order): DomainEvent<OrderPlacedData> {
  return {
    eventId: orderPlacedEventId(order.orderId),
    domain: 'orders',
    type: ORDER_PLACED,
    aggregateId: order.orderId,
    version: 1,
    schemaVersion: 1,
    isDeleted: false,
    occurredAt: order.createdAt,
    shard: 0,
    data: {
      orderId: order.orderId,
      customerId: order.customerId,
      currency: order.currency,
      items: order.items.map((l) => ({ sku: l.sku, quantity: l.quantity, unitPrice: l.unitPrice })),
      total: order.total,
      itemCount: order.itemCount,
      createdAt: order.createdAt.toISOString(),
    },
  };
}
