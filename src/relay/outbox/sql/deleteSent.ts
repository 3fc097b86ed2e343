// SQL: delete one bounded batch of SENT rows older than the retention period.
//
// Locking: MySQL deletes `LIMIT n` rows of the (status, due_at) index range (due_at is sent_at for a
// SENT row) in one statement at READ COMMITTED, so it takes no gap locks that would block relays
// moving rows into SENT; PostgreSQL picks the ids with FOR UPDATE SKIP LOCKED in a subquery (it has
// no DELETE ... LIMIT), so two cleaners never wait for each other. Only SENT rows are touched: NEW,
// PROCESSING, FAILED and PARKED rows are never removed by cleanup. Small batches keep each
// statement's locks and undo short so cleanup never stalls the business transactions or the relays.
import type { Knex } from 'knex';
import { dialectOf, nowMinusMs } from '../dialect';
import { OUTBOX_TABLE } from '../outboxEvent';

export async function deleteSentBatch(db: Knex, retentionMs: number, batchSize: number): Promise<number> {
  if (dialectOf(db) === 'mysql') {
    return db.transaction((trx) => trx(OUTBOX_TABLE).where('status', 'SENT').andWhere('due_at', '<', nowMinusMs(trx, retentionMs)).limit(batchSize).delete(), {
      isolationLevel: 'read committed',
    });
  }
  const ids = db(OUTBOX_TABLE).select('id').where('status', 'SENT').andWhere('due_at', '<', nowMinusMs(db, retentionMs)).orderBy('id').limit(batchSize).forUpdate().skipLocked();
  return db(OUTBOX_TABLE).whereIn('id', ids).delete();
}
