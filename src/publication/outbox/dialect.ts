// Outbox-specific SQL helpers on top of the shared dialect module (src/infra/sql/dialect.ts).
import type { Knex } from 'knex';
import { dialectOf } from '../../infra/sql/dialect';

export { dialectOf, nowMinusMs, nowPlusMs, nowSql, type Dialect } from '../../infra/sql/dialect';

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
