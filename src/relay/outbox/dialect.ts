// The two SQL dialects the outbox relay speaks. All times the relay compares or writes come from the
// database's clock, never the relay host's: relays on machines with skewed clocks still agree on
// whose lease has expired and whose retry is due.
import type { Knex } from 'knex';

export type Dialect = 'mysql' | 'postgres';

export function dialectOf(db: Knex): Dialect {
  const client = String(db.client.config.client);
  if (client === 'pg' || client === 'postgres' || client === 'postgresql') return 'postgres';
  if (client === 'mysql' || client === 'mysql2') return 'mysql';
  throw new TypeError(`the outbox relay supports MySQL/MariaDB and PostgreSQL, not ${client}`);
}

/** The database's current time (millisecond precision on MySQL; transaction time on PostgreSQL). */
export function nowSql(d: Dialect): string {
  return d === 'mysql' ? 'NOW(3)' : 'now()';
}

/** `now + ms` on the database clock, as a raw fragment with one binding. */
export function nowPlusMs(db: Knex, ms: number): Knex.Raw {
  const whole = Math.max(0, Math.round(ms));
  return dialectOf(db) === 'mysql' ? db.raw('DATE_ADD(NOW(3), INTERVAL ? MICROSECOND)', [whole * 1000]) : db.raw("now() + (?::bigint * interval '1 millisecond')", [whole]);
}

/** `now - ms` on the database clock. */
export function nowMinusMs(db: Knex, ms: number): Knex.Raw {
  const whole = Math.max(0, Math.round(ms));
  return dialectOf(db) === 'mysql' ? db.raw('DATE_SUB(NOW(3), INTERVAL ? MICROSECOND)', [whole * 1000]) : db.raw("now() - (?::bigint * interval '1 millisecond')", [whole]);
}

/**
 * The outbox table for an UPDATE by id. On MySQL the primary key is forced: an UPDATE whose WHERE
 * also names `status` may otherwise range-scan a (status, ...) index and take next-key locks on the
 * PROCESSING range, which deadlocks with concurrent claims inserting into that range. By primary
 * key, an update locks exactly the rows it names.
 */
export function outboxById(db: Knex, table: string): Knex.QueryBuilder {
  return dialectOf(db) === 'mysql' ? db(db.raw('?? FORCE INDEX (PRIMARY)', [table])) : db(table);
}

const DEADLOCK = new Set<unknown>([1213, '40P01']);

/** Re-runs a single idempotent statement the engine aborted as a deadlock victim (rolled back whole). */
export async function retryDeadlock<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (err) {
      const e = err as { errno?: unknown; code?: unknown };
      if (i >= attempts || !(DEADLOCK.has(e.errno) || DEADLOCK.has(e.code))) throw err;
    }
  }
}
