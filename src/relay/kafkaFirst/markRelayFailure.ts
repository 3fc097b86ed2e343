// A failed relay attempt: count it, store a safe error summary, and either schedule the next attempt
// (next_attempt_at = database now + backoff) or move the row to DEAD_LETTER.
//
// Guarded by the claim owner like markPublished: a relay whose claim was taken over cannot overwrite
// the new owner's state. The attempt count is written as a value the caller computed from the claimed
// row (decideRelayFailure), not as `relay_attempts + 1`, because MySQL evaluates SET assignments left
// to right and a CASE on the incremented column would differ between dialects. The error columns only
// ever receive summarizeError output (redacted, truncated), never raw exception text or payload bytes.
import type { Knex } from 'knex';
import { affectedRows, nowPlusMsSql, dialectOf } from '../../infra/sql/dialect';
import type { SafeErrorSummary } from '../../shared/redact';
import type { RelayFailureDecision } from './decideRelayFailure';

/** Returns false when this owner no longer held the claim (claim lost). */
export async function markRelayFailure(db: Knex, owner: string, id: number, decision: RelayFailureDecision, error: SafeErrorSummary): Promise<boolean> {
  const d = dialectOf(db);
  const r = await db.raw(
    `UPDATE event_publications
        SET relay_attempts = ?, status = ?, next_attempt_at = ${nowPlusMsSql(d)},
            claim_owner = NULL, claim_expires_at = NULL, last_error_code = ?, last_error_summary = ?
      WHERE id = ? AND claim_owner = ? AND status = 'NOT_PUBLISHED'`,
    [decision.relayAttempts, decision.status, decision.retryInMs, error.code.slice(0, 64), error.summary.slice(0, 255), id, owner],
  );
  const n = affectedRows(d, r);
  return n === 1;
}
