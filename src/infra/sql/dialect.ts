// The two SQL dialects Tidemark's relational stores speak: MySQL/MariaDB (fitness shards) and
// PostgreSQL (orders). Both publication strategies and their relays run on either, so SQL is written
// once per operation and branches only where the engines differ (RETURNING, interval arithmetic,
// affected-row counts). Every time a relay compares or writes comes from the database's clock, never
// the caller's: processes on machines with skewed clocks still agree on leases and retry times.
import type { Knex } from 'knex';

export type Dialect = 'mysql' | 'postgres';

export function dialectOf(db: Knex | Knex.Transaction): Dialect {
  const client = String((db.client as { config?: { client?: unknown } }).config?.client ?? '');
  if (client === 'pg' || client === 'postgres' || client === 'postgresql') return 'postgres';
  if (client === 'mysql' || client === 'mysql2') return 'mysql';
  throw new TypeError(`Tidemark supports MySQL/MariaDB and PostgreSQL stores, not the ${client} client`);
}

export const isPostgres = (db: Knex | Knex.Transaction): boolean => dialectOf(db) === 'postgres';

/** The database's current time with millisecond precision. */
export function nowSql(d: Dialect): string {
  return d === 'mysql' ? 'NOW(3)' : 'CURRENT_TIMESTAMP(3)';
}

/** SQL for "database now plus ? milliseconds" (one binding: the milliseconds). */
export function nowPlusMsSql(d: Dialect): string {
  return d === 'postgres'
    ? `(CURRENT_TIMESTAMP(3) + (?::double precision * INTERVAL '1 millisecond'))`
    : '(NOW(3) + INTERVAL (? * 1000) MICROSECOND)';
}

/** `now + ms` on the database clock, as a raw fragment. */
export function nowPlusMs(db: Knex, ms: number): Knex.Raw {
  return db.raw(nowPlusMsSql(dialectOf(db)), [Math.max(0, Math.round(ms))]);
}

/** `now - ms` on the database clock, as a raw fragment. */
export function nowMinusMs(db: Knex, ms: number): Knex.Raw {
  return db.raw(nowPlusMsSql(dialectOf(db)), [-Math.max(0, Math.round(ms))]);
}

/** Milliseconds since `column` on the database clock, as an integer (for ages of stored rows). */
export function ageMsSql(d: Dialect, column: string): string {
  return d === 'postgres'
    ? `CAST(EXTRACT(EPOCH FROM (CURRENT_TIMESTAMP(3) - ${column})) * 1000 AS BIGINT)`
    : `(TIMESTAMPDIFF(MICROSECOND, ${column}, NOW(3)) DIV 1000)`;
}

/** `?, ?, ?` for n bindings. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** Rows of a raw SELECT, whatever the driver's result shape. */
export function rowsOf<T>(d: Dialect, result: unknown): T[] {
  return (d === 'postgres' ? (result as { rows: T[] }).rows : (result as [T[]])[0]) ?? [];
}

/** Rows changed by a raw UPDATE/DELETE, whatever the driver's result shape. */
export function affectedRows(d: Dialect, result: unknown): number {
  return d === 'postgres'
    ? Number((result as { rowCount: number }).rowCount)
    : Number((result as [{ affectedRows: number }])[0].affectedRows);
}
