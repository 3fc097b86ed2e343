// SQL: every UTC hour that holds an order created before `until`, for the registry of scopes the
// rolling re-verification walks.
//
// Locking: a plain non-locking read. A recursive loose index scan over orders_created_at_idx: each
// step asks the index for the first order at or after the next hour, so the cost grows with the
// number of hours that hold orders, not with the number of orders.
import type { Knex } from 'knex';

export async function orderHours(db: Knex, until: Date): Promise<Date[]> {
  const r = await db.raw<{ rows: { h: Date }[] }>(
    `WITH RECURSIVE hours(h) AS (
       SELECT date_trunc('hour', min(created_at) AT TIME ZONE 'UTC') FROM orders WHERE created_at < ?
       UNION ALL
       SELECT (SELECT date_trunc('hour', min(o.created_at) AT TIME ZONE 'UTC') FROM orders o
                WHERE o.created_at >= (hours.h + interval '1 hour') AT TIME ZONE 'UTC' AND o.created_at < ?)
         FROM hours WHERE hours.h IS NOT NULL
     )
     SELECT h AT TIME ZONE 'UTC' AS h FROM hours WHERE h IS NOT NULL`,
    [until, until],
  );
  return r.rows.map((row) => new Date(row.h));
}
