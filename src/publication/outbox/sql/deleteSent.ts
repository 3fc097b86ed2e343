// SQL: delete one bounded batch of SENT rows older than the retention period, on the (status, due_at)
// index (due_at is sent_at for a SENT row). NEW, PROCESSING, FAILED and PARKED rows are never removed
// by cleanup. Locking as in src/infra/sql/deleteExpiredBatch.ts.
import type { Knex } from 'knex';
import { deleteExpiredBatch } from '../../../infra/sql/deleteExpiredBatch';
import { OUTBOX_TABLE } from '../outboxEvent';

export async function deleteSentBatch(db: Knex, retentionMs: number, batchSize: number): Promise<number> {
  return deleteExpiredBatch(db, { table: OUTBOX_TABLE, status: 'SENT', timeColumn: 'due_at', retentionMs }, batchSize);
}
