// SQL: delete one bounded batch of PUBLISHED event_publications rows older than their retention.
// NOT_PUBLISHED (still owed to Kafka) and DEAD_LETTER rows (waiting for an operator) are never
// removed. A row is PUBLISHED only after the broker acknowledged it, so deleting it loses nothing:
// the reconciler's evidence of delivery is the projection. Locking as in
// src/infra/sql/deleteExpiredBatch.ts.
import type { Knex } from 'knex';
import { deleteExpiredBatch } from '../../../infra/sql/deleteExpiredBatch';

export async function deletePublishedBatch(db: Knex, retentionMs: number, batchSize: number): Promise<number> {
  return deleteExpiredBatch(db, { table: 'event_publications', status: 'PUBLISHED', timeColumn: 'published_at', retentionMs }, batchSize);
}
