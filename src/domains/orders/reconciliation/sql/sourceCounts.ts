// SQL: logical counts of an order window per UTC day.
//
// Locking: a plain non-locking read over the window's index range.
import type { Knex } from 'knex';
import type { OrderWindowScope } from '../windowScope';

export async function ordersCounts(db: Knex, scope: OrderWindowScope): Promise<Map<string, number>> {
  const r = await db.raw<{ rows: { day: string; n: string }[] }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, COUNT(*) AS n FROM orders WHERE created_at >= ? AND created_at < ? GROUP BY 1`,
    [scope.from, scope.to],
  );
  return new Map(r.rows.map((row) => [row.day, Number(row.n)]));
}
