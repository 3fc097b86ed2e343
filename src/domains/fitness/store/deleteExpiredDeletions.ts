// SQL: delete one bounded batch of deletion-log entries (fitness_result_deletions) older than their
// retention (FITNESS_DELETION_LOG_RETENTION_DAYS; 0 keeps them until the student is erased).
//
// What an expired entry means: the deletion log is the source's only memory of a deleted result.
// Reconciliation reads it as the authoritative tombstone (reconciliation/sql/readAuthoritative.ts,
// scopeRows.ts): with the entry gone, the source no longer knows the result existed, so a tombstone
// lost on the way to ClickHouse can no longer be repaired or replayed, and a live projected row of that
// result shows up as UNEXPECTED (a row the source does not have) instead of UNDELETED.
//
// Locking: one DELETE ... LIMIT n over the (deleted_at) index range at READ COMMITTED (the pool's
// session level), so no gap locks: a deletion writing a new log entry right now is far younger than
// any retention and never waits. Small batches keep each statement's locks and undo short.
import type { Knex } from 'knex';
import { nowMinusMs } from '../../../infra/sql/dialect';
import { DELETIONS } from './rows';

export async function deleteExpiredDeletionsBatch(db: Knex, olderThanMs: number, n: number): Promise<number> {
  return db(DELETIONS).where('deleted_at', '<', nowMinusMs(db, olderThanMs)).limit(n).delete();
}
