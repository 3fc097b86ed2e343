// SQL: delete at most `batchSize` rows of one status whose time column is older than a retention
// (the retention cleanups of outbox_events SENT rows and event_publications PUBLISHED rows).
//
// Locking: only rows of the given status are touched, so rows still being worked on are never
// removed. MySQL deletes `LIMIT n` rows of the status's range of an index led by status, in one autocommit
// statement at READ COMMITTED (every MySQL pool's session level, src/infra/mysql/fromMysql.ts), so it
// takes no gap locks that would block relays moving rows into that status; PostgreSQL has no
// DELETE ... LIMIT and picks the ids with FOR UPDATE SKIP LOCKED in a subquery, so two cleaners never
// wait for each other. Small batches keep each statement's locks and undo short, so cleanup never
// stalls the business transactions or the relays. The time is the database's clock.
import type { Knex } from 'knex';
import { dialectOf, nowMinusMs } from './dialect';

export interface ExpiredRows {
  table: string;
  status: string;
  /** The row's time for this status, compared on the database clock. */
  timeColumn: string;
  retentionMs: number;
}

export async function deleteExpiredBatch(db: Knex, e: ExpiredRows, batchSize: number): Promise<number> {
  const expired = (q: Knex.QueryBuilder) => q.where('status', e.status).andWhere(e.timeColumn, '<', nowMinusMs(db, e.retentionMs));
  if (dialectOf(db) === 'mysql') return expired(db(e.table)).limit(batchSize).delete();
  const ids = expired(db(e.table).select('id')).orderBy('id').limit(batchSize).forUpdate().skipLocked();
  return db(e.table).whereIn('id', ids).delete();
}
