// Orders created on or before the cutoff that have no publication record, after the kafka-first
// publication reconciler's progress position, oldest first, at most `limit` (a bounded batch).
//
// The "no publication record" test is a SQL anti-join (NOT EXISTS) on the unique event_id index of
// event_publications, and also of outbox_events, so orders placed while the domain ran the outbox
// strategy are never mistaken for lost ones. The keyset (created_at, order_id) > position uses
// orders_created_at_idx. Read-only, no locks: the caller holds the progress row lock, which is what
// keeps two reconcilers out of the same range.
import type { Knex } from 'knex';
import type { ScanPosition } from '../../../contract/reconciliation';
import { ORDER_COLUMNS, orderFromRow, type OrderRow } from '../../orderRow';
import type { Order } from '../../order';

export async function findOrdersWithoutPublications(
  db: Knex | Knex.Transaction,
  o: { cutoff: Date; after: ScanPosition; limit: number },
): Promise<Order[]> {
  const eventId = `'order-placed:' || o.order_id::text || ':v1'`;
  const r = await db.raw<{ rows: OrderRow[] }>(
    `SELECT ${ORDER_COLUMNS.map((c) => `o.${c}`).join(', ')}
       FROM orders o
      WHERE o.created_at <= ?
        AND (o.created_at, o.order_id) > (?, ?::uuid)
        AND NOT EXISTS (SELECT 1 FROM event_publications p WHERE p.event_id = ${eventId})
        AND NOT EXISTS (SELECT 1 FROM outbox_events ob WHERE ob.event_id = ${eventId})
      ORDER BY o.created_at, o.order_id
      LIMIT ?`,
    [o.cutoff, o.after.createdAt, o.after.aggregateId, o.limit],
  );
  return r.rows.map(orderFromRow);
}
