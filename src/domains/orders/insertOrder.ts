// INSERT of one order, the only write of placing an order (run by Publisher.commitSingleWrite: in
// autocommit under kafka-first, inside the outbox transaction under the outbox strategy).
//
// Idempotency without a second table or a pre-read: `ON CONFLICT (idempotency_owner, idempotency_key)
// DO NOTHING`. Keys are unique per caller (owner = the placing token subject, constraint
// orders_idempotency_owner_key_uq, migrations/postgres/010_order_ownership.ts): another principal
// reusing a key inserts an order of its own and never sees or blocks the first caller's. When two
// requests of one caller race on one key, PostgreSQL makes the second INSERT wait on the first one's
// unique-index entry; once that commits the second does nothing, and its following SELECT (a new
// statement, so a new READ COMMITTED snapshot; in autocommit a new transaction) sees the committed
// order. A rollback of the first lets the second insert. No row locks are taken beyond the new row
// itself; nothing else in the store is touched. changed_by records the placing subject, channel the
// sales channel the client named.
import type { Knex } from 'knex';
import { ORDER_COLUMNS, orderFromRow, type OrderRow } from './orderRow';
import type { Order } from './order';

export type InsertOrderResult = { inserted: true; order: Order } | { inserted: false; order: Order; requestHash: string };

/** Whose key it is (the token subject) and the key the client chose. */
export interface OwnedKey {
  owner: string;
  key: string;
}

export async function insertOrder(db: Knex, order: Order, idempotency: OwnedKey, requestHash: string): Promise<InsertOrderResult> {
  const inserted = await db.raw<{ rows: { order_id: string }[] }>(
    `INSERT INTO orders (order_id, customer_id, currency, items, total, item_count, idempotency_owner, idempotency_key, request_hash,
                         created_at, changed_by, channel)
     VALUES (?, ?, ?, ?::jsonb, ?::numeric, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (idempotency_owner, idempotency_key) DO NOTHING
     RETURNING order_id`,
    [
      order.orderId,
      order.customerId,
      order.currency,
      JSON.stringify(order.items),
      order.total,
      order.itemCount,
      idempotency.owner,
      idempotency.key,
      requestHash,
      order.createdAt,
      order.changedBy,
      order.channel ?? null,
    ],
  );
  if (inserted.rows.length === 1) return { inserted: true, order };
  const existing = (await db('orders')
    .select<(OrderRow & { request_hash: string })[]>([...ORDER_COLUMNS, 'request_hash'])
    .where({ idempotency_owner: idempotency.owner, idempotency_key: idempotency.key })
    .first()) as (OrderRow & { request_hash: string }) | undefined;
  // Unreachable unless the conflicting row vanished between the two statements (orders are never deleted).
  if (!existing) throw new Error('order with this idempotency key disappeared');
  return { inserted: false, order: orderFromRow(existing), requestHash: existing.request_hash };
}
