// SQL: an erasure's pseudonymisation of the orders table (src/domains/orders/erasure/): on the given
// orders, every column naming the customer (customer_id, and idempotency_owner / changed_by when the
// placing subject was the customer itself) is set to the pseudonym. The financial columns (currency,
// items, total, item_count) and request_hash are untouched: the order, as a financial fact, stays.
//
// Run on the caller's transaction (READ COMMITTED). Each UPDATE goes by primary key (order_id = ANY,
// chunks of ID_CHUNK) and locks only the orders it changes; placing a new order never waits on it (a
// new row). Only rows still holding the customer's id change, so a second call touches nothing. The
// (idempotency_owner, idempotency_key) constraint stays satisfied: one owner's keys are unique, and
// they move to the pseudonym together (a pseudonym is per customer).
import type { Knex } from 'knex';
import { chunks } from '../../infra/sql/aggregateRows';
import { CUSTOMER_COLUMNS } from './customerOrderRows';

export async function pseudonymiseOrderRows(db: Knex, orderIds: readonly string[], customerId: string, pseudonym: string): Promise<number> {
  let n = 0;
  for (const ids of chunks(orderIds))
    for (const c of CUSTOMER_COLUMNS)
      n += await db('orders')
        .whereIn('order_id', ids)
        .andWhere(c, customerId)
        .update({ [c]: pseudonym });
  return n;
}
