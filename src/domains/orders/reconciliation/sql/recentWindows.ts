// SQL: UTC hours with orders in [since, until), with their newest order; each hour is an order window
// the scheduler reconciles once it is complete (orders are immutable, so an hour that ended before
// `until` no longer changes).
//
// Locking: a plain non-locking read over orders_created_at_idx.
import type { Knex } from 'knex';

export async function recentHourWindows(db: Knex, since: Date, until: Date): Promise<{ from: Date; lastChangeMs: number }[]> {
  const r = await db.raw<{ rows: { h: Date; last: Date }[] }>(
    `SELECT date_trunc('hour', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS h, MAX(created_at) AS last
       FROM orders WHERE created_at >= ? AND created_at < ? GROUP BY 1`,
    [since, until],
  );
  return r.rows.map((row) => ({ from: new Date(row.h), lastChangeMs: new Date(row.last).getTime() }));
}
