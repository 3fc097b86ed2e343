// SQL: complete a claim's rows that failed on their own (a record failure) as FAILED (retry later) or
// PARKED (attempts used up, or the last-resort age passed).
//
// Locking: one autocommit UPDATE by primary key per outcome group (forced on MySQL, retried as a
// deadlock victim), guarded by `claim_token = ? AND status =
// 'PROCESSING'` exactly like markSent, so a relay whose lease was taken over cannot overwrite the new
// owner. next_retry_at is computed on the database clock (now + delay); the delay itself comes from
// the injected RetryPolicy. Only a safe error summary is stored (summarizeError), never raw text or
// payload.
import type { Knex } from 'knex';
import type { FailureGroup } from '../../relayPort/publicationTable';
import { dialectOf, nowPlusMs, nowSql, outboxById, retryDeadlock } from '../dialect';
import { OUTBOX_TABLE } from '../outboxEvent';

/** Returns how many rows were still owned by `token` and changed. */
export async function markFailed(db: Knex, token: string, group: FailureGroup): Promise<number> {
  if (group.records.length === 0) return 0;
  const common = {
    claim_token: null,
    lease_expires_at: null,
    last_error_code: group.error.code.slice(0, 64),
    last_error_summary: group.error.summary.slice(0, 255),
  };
  const change = group.giveUp
    ? { ...common, status: 'PARKED', parked_at: db.raw(nowSql(dialectOf(db))), next_retry_at: null }
    : { ...common, status: 'FAILED', next_retry_at: nowPlusMs(db, group.delayMs) };
  const ids = group.records.map((r) => r.id);
  return retryDeadlock(() =>
    outboxById(db, OUTBOX_TABLE).whereIn('id', ids).andWhere({ claim_token: token, status: 'PROCESSING' }).update(change),
  );
}
