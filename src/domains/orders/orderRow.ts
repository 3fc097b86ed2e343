// Mapping between the `orders` row (PostgreSQL) and the domain Order. NUMERIC comes back from pg as a
// string with its declared scale ("39.8000"), so the canonical text survives the round trip unchanged.
// changed_by (who placed it) and channel (migrations/postgres/015_order_channel.ts) are in the event
// from schema version 2 (./events.ts), so a rebuilt event carries them as the first one did.
import type { Order, OrderLine } from './order';

export interface OrderRow {
  order_id: string;
  customer_id: string;
  currency: string;
  items: OrderLine[] | string;
  total: string;
  item_count: number;
  created_at: Date;
  /** NULL for orders placed before migrations/postgres/010_order_ownership.ts. */
  changed_by: string | null;
  /** NULL when the client did not say, and for orders placed before 015_order_channel. */
  channel?: string | null;
}

export const ORDER_COLUMNS = [
  'order_id',
  'customer_id',
  'currency',
  'items',
  'total',
  'item_count',
  'created_at',
  'changed_by',
  'channel',
] as const;

export function orderFromRow(r: OrderRow): Order {
  const items = (typeof r.items === 'string' ? JSON.parse(r.items) : r.items) as OrderLine[];
  return {
    orderId: r.order_id,
    customerId: r.customer_id,
    currency: r.currency,
    items: items.map((l) => ({ sku: l.sku, quantity: l.quantity, unitPrice: l.unitPrice })),
    total: r.total,
    itemCount: Number(r.item_count),
    createdAt: new Date(r.created_at),
    changedBy: r.changed_by ?? null,
    channel: r.channel ?? null,
  };
}
