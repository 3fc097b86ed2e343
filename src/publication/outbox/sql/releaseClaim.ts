// SQL: hand a claim's rows back after an outage (the Kafka cluster failed, not the records), without
// spending an attempt: status FAILED (the row did fail to go out, and FAILED is what the claim reads
// for retries), attempts back to what it was before this claim counted one, next_retry_at = database
// now + delay. The circuit keeps the relays from claiming again until the cluster answers, so the delay
// only spaces out retries when a part of the cluster failed while the rest took its records.
//
// Locking: one autocommit UPDATE by primary key (forced on MySQL, see outboxById), guarded by
// `claim_token = ? AND status = 'PROCESSING'` exactly like markSent and markFailed: rows whose lease was
// taken over are left to their new owner. Retried as a deadlock victim (it is idempotent).
import type { Knex } from 'knex';
import type { SafeErrorSummary } from '../../../shared/redact';
import type { RelayRecord } from '../../relayPort/publicationTable';
import { nowPlusMs, outboxById, retryDeadlock } from '../dialect';
import { OUTBOX_TABLE } from '../outboxEvent';

/** Returns how many rows were still owned by `token` and were released. */
export async function releaseClaim(
  db: Knex,
  token: string,
  records: RelayRecord[],
  delayMs: number,
  error: SafeErrorSummary,
): Promise<number> {
  if (records.length === 0) return 0;
  const ids = records.map((r) => r.id);
  return retryDeadlock(() =>
    outboxById(db, OUTBOX_TABLE)
      .whereIn('id', ids)
      .andWhere({ claim_token: token, status: 'PROCESSING' })
      .update({
        status: 'FAILED',
        attempts: db.raw('GREATEST(attempts - 1, 0)'),
        next_retry_at: nowPlusMs(db, delayMs),
        claim_token: null,
        lease_expires_at: null,
        last_error_code: error.code.slice(0, 64),
        last_error_summary: error.summary.slice(0, 255),
      }),
  );
}
