// SQL: erasure's read-only searches of the orders table for one customer (src/domains/orders/erasure/).
// A customer is named by three columns: customer_id (the order's customer), idempotency_owner and
// changed_by (the token subject that placed it: a customer placing for itself may carry its own id as
// subject). No index serves customer_id or the subject columns: the statements scan orders. Erasure
// is rare and operator driven; the scan is the accepted cost rather than an index every order write
// pays for. Plain reads at READ COMMITTED, no locks.
import type { Knex } from 'knex';

/** The columns of orders that can name a customer. */
export const CUSTOMER_COLUMNS = ['customer_id', 'idempotency_owner', 'changed_by'] as const;

/** The order ids (aggregate ids) of the customer's orders, any time. */
export async function customerOrderIds(db: Knex, customerId: string): Promise<string[]> {
  const rows = (await db('orders').select('order_id').where('customer_id', customerId)) as { order_id: string }[];
  return rows.map((r) => String(r.order_id));
}

/** Rows of orders created before `before` that still name the customer in any of CUSTOMER_COLUMNS. */
export async function countCustomerOrderRows(db: Knex, customerId: string, before: Date): Promise<number> {
  const r = (await db('orders')
    .where('created_at', '<', before)
    .andWhere((q) => {
      for (const c of CUSTOMER_COLUMNS) q.orWhere(c, customerId);
    })
    .count({ n: '*' })) as { n: string | number }[];
  return Number(r[0]?.n ?? 0);
}
