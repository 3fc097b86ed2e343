// SQL: delete one bounded batch of PUBLISHED event_publications rows older than their retention.
//
// Locking: only PUBLISHED rows are touched; NOT_PUBLISHED (still owed to Kafka) and DEAD_LETTER rows
// (waiting for an operator) are never removed. MySQL deletes `LIMIT n` rows of the status range in one
// autocommit statement at READ COMMITTED (no gap locks, so relays claiming NOT_PUBLISHED rows never
// wait); PostgreSQL has no DELETE ... LIMIT and picks the ids with FOR UPDATE SKIP LOCKED, so two
// cleaners never wait for each other. A row is PUBLISHED only after the broker acknowledged it, so
// deleting it loses nothing: the reconciler's evidence of delivery is the projection.
import type { Knex } from 'knex';
import { dialectOf, nowMinusMs } from '../../infra/sql/dialect';

const TABLE = 'event_publications';

export async function deletePublishedBatch(db: Knex, retentionMs: number, batchSize: number): Promise<number> {
  if (dialectOf(db) === 'mysql') return db(TABLE).where('status', 'PUBLISHED').andWhere('published_at', '<', nowMinusMs(db, retentionMs)).limit(batchSize).delete();
  const ids = db(TABLE).select('id').where('status', 'PUBLISHED').andWhere('published_at', '<', nowMinusMs(db, retentionMs)).orderBy('id').limit(batchSize).forUpdate().skipLocked();
  return db(TABLE).whereIn('id', ids).delete();
}
