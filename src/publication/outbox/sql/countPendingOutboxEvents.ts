// SELECT pending outbox rows per status (optionally per aggregate) for a freshness marker.
// Locking: none. A plain SELECT is a consistent non-locking read on InnoDB and PostgreSQL, so it never
// waits for nor blocks relays claiming rows with FOR UPDATE SKIP LOCKED. A row claimed a moment ago
// is still counted (PROCESSING is pending until the relay marks it SENT), which errs toward
// CATCHING_UP, never toward FRESH. Served by the (status, due_at) index; SENT rows are not read.
import type { Knex } from 'knex';
import { countPendingRows, type PendingCountRow, type PendingScope } from '../../pendingScope';

export const OUTBOX_PENDING = ['NEW', 'PROCESSING', 'FAILED'] as const;
export const OUTBOX_STUCK = ['PARKED'] as const;

export function countPendingOutboxEvents(
  db: Knex,
  scope: PendingScope,
  /** The domain's scope fields (applyScope refuses any other). */
  fields: readonly string[],
  aggregateIds?: string[] | 'each',
): Promise<PendingCountRow[]> {
  return countPendingRows(db, 'outbox_events', [...OUTBOX_PENDING, ...OUTBOX_STUCK], scope, fields, aggregateIds);
}
