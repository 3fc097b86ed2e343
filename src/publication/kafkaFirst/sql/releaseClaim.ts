// SQL: hand a claim's rows back after an outage (the Kafka cluster failed, not the records), without
// spending an attempt: relay_attempts stays, next_attempt_at = database now + delay, the claim is
// cleared and the outage's safe summary is stored. The rows stay NOT_PUBLISHED: an outage is never
// what dead-letters them. The circuit keeps relays from claiming until the cluster answers; the delay
// only spaces out retries when a part of the cluster failed while the rest took its records.
//
// Locking: one UPDATE by primary key list, guarded by the claim owner and status like markPublished.
import type { Knex } from 'knex';
import { affectedRows, nowPlusMsSql, dialectOf, placeholders } from '../../../infra/sql/dialect';
import type { SafeErrorSummary } from '../../../shared/redact';
import type { RelayRecord } from '../../relayPort/publicationTable';

/** Returns how many rows this claim still held and released. */
export async function releaseClaim(
  db: Knex,
  token: string,
  records: RelayRecord[],
  delayMs: number,
  error: SafeErrorSummary,
): Promise<number> {
  if (records.length === 0) return 0;
  const d = dialectOf(db);
  const ids = records.map((r) => r.id);
  const r = await db.raw(
    `UPDATE event_publications
        SET next_attempt_at = ${nowPlusMsSql(d)}, claim_owner = NULL, claim_expires_at = NULL, last_error_code = ?, last_error_summary = ?
      WHERE id IN (${placeholders(ids.length)}) AND claim_owner = ? AND status = 'NOT_PUBLISHED'`,
    [Math.max(0, Math.round(delayMs)), error.code.slice(0, 64), error.summary.slice(0, 255), ...ids, token],
  );
  return affectedRows(d, r);
}
