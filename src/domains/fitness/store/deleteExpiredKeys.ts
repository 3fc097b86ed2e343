// SQL: delete one bounded batch of fitness idempotency keys older than their retention.
//
// Locking: one DELETE ... LIMIT n over the (created_at) index range at READ COMMITTED (the pool's
// session level), so it takes no gap locks and a write claiming a new key never waits for it. A key
// being claimed right now is far younger than any retention and outside the range. Small batches
// keep each statement's locks and undo short. After deletion a retry carrying that key is a new
// request: the retention is how long a client may retry safely (docs/fitness.md).
import type { Knex } from 'knex';
import { nowMinusMs } from '../../../infra/sql/dialect';
import { IDEMPOTENCY_KEYS } from './rows';

export async function deleteExpiredKeysBatch(db: Knex, retentionMs: number, batchSize: number): Promise<number> {
  return db(IDEMPOTENCY_KEYS).where('created_at', '<', nowMinusMs(db, retentionMs)).limit(batchSize).delete();
}
