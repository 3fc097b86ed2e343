// SQL: complete a claim's rows that failed on their own (a record failure): count the attempt, store a
// safe error summary, and either schedule the next attempt (next_attempt_at = database now + backoff)
// or move the rows to DEAD_LETTER (the RetryPolicy gave up: the third failure by default, or the
// last-resort age passed).
//
// One UPDATE per failure group (the engine groups rows by outcome, attempts and error code), guarded
// by the claim owner like markPublished: a relay whose claim was taken over cannot overwrite the new
// owner's state. The attempt count is written as the value the engine computed from the claimed rows
// (every row of a group has the same), not as `relay_attempts + 1`, because MySQL evaluates SET
// assignments left to right and a CASE on the incremented column would differ between dialects. The
// error columns only ever receive summarizeError output (redacted, truncated), never raw exception
// text or payload bytes.
import type { Knex } from 'knex';
import { affectedRows, nowPlusMsSql, dialectOf, placeholders } from '../../../infra/sql/dialect';
import type { FailureGroup } from '../../relayPort/publicationTable';

/** Returns how many rows this claim still held and changed. */
export async function markRelayFailure(db: Knex, token: string, group: FailureGroup): Promise<number> {
  if (group.records.length === 0) return 0;
  const d = dialectOf(db);
  const ids = group.records.map((r) => r.id);
  const r = await db.raw(
    `UPDATE event_publications
        SET relay_attempts = ?, status = ?, next_attempt_at = ${nowPlusMsSql(d)},
            claim_owner = NULL, claim_expires_at = NULL, last_error_code = ?, last_error_summary = ?
      WHERE id IN (${placeholders(ids.length)}) AND claim_owner = ? AND status = 'NOT_PUBLISHED'`,
    [
      group.records[0]!.attempts,
      group.giveUp ? 'DEAD_LETTER' : 'NOT_PUBLISHED',
      group.giveUp ? 0 : Math.max(0, Math.round(group.delayMs)),
      group.error.code.slice(0, 64),
      group.error.summary.slice(0, 255),
      ...ids,
      token,
    ],
  );
  return affectedRows(d, r);
}
