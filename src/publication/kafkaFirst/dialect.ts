// The two SQL dialects event_publications lives in. Kafka-first SQL is written once per operation and
// branches only where PostgreSQL and MySQL/MariaDB differ (RETURNING, interval arithmetic, UPDATE with
// LIMIT). Every time comparison uses the database clock, never the caller's, so relays on machines
// with skewed clocks still agree on who holds a claim.
import type { Knex } from 'knex';

export type Dialect = 'pg' | 'mysql';

export function dialectOf(db: Knex | Knex.Transaction): Dialect {
  const client = String((db.client as { config?: { client?: unknown } }).config?.client ?? '');
  if (client === 'pg' || client === 'postgres' || client === 'postgresql') return 'pg';
  if (client === 'mysql' || client === 'mysql2') return 'mysql';
  throw new Error(`event_publications does not support the ${client} client`);
}

/** The database's current time with millisecond precision. */
export function dbNow(d: Dialect): string {
  return d === 'pg' ? 'CURRENT_TIMESTAMP(3)' : 'NOW(3)';
}

/** SQL for "database now plus ? milliseconds" (one binding: the milliseconds). */
export function dbNowPlusMs(d: Dialect): string {
  return d === 'pg' ? `(CURRENT_TIMESTAMP(3) + (?::double precision * INTERVAL '1 millisecond'))` : '(NOW(3) + INTERVAL (? * 1000) MICROSECOND)';
}

/** `?, ?, ?` for n bindings. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** Rows of a raw SELECT, whatever the driver's result shape. */
export function rowsOf<T>(d: Dialect, result: unknown): T[] {
  return (d === 'pg' ? (result as { rows: T[] }).rows : (result as [T[]])[0]) ?? [];
}
