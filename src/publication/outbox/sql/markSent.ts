// SQL: complete a claim's successfully published rows as SENT.
//
// Locking: one autocommit UPDATE by primary key (forced on MySQL, see outboxById), retried if the
// engine picks it as a deadlock victim (it is idempotent), guarded by `claim_token = ? AND status =
// 'PROCESSING'`: only rows this claim still owns change. If the lease expired and another relay
// reclaimed a row (new token), or an operator reset it, this update matches nothing for that row and
// the caller counts it as a lost claim instead of overwriting the newer owner's state. SENT means the
// broker acknowledged with acks=all, nothing more.
import type { Knex } from 'knex';
import { dialectOf, nowSql, outboxById, retryDeadlock } from '../dialect';
import { OUTBOX_TABLE } from '../outboxEvent';

/** Returns how many rows were still owned by `token` and are now SENT. */
export async function markSent(db: Knex, token: string, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  return retryDeadlock(() =>
    outboxById(db, OUTBOX_TABLE)
      .whereIn('id', ids)
      .andWhere({ claim_token: token, status: 'PROCESSING' })
      .update({
        status: 'SENT',
        sent_at: db.raw(nowSql(dialectOf(db))),
        lease_expires_at: null,
        next_retry_at: null,
        last_error_code: null,
        last_error_summary: null,
      }),
  );
}
