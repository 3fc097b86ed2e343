// SELECT pending outbox rows per status (optionally per aggregate) for a freshness marker.
// Locking: none. A plain SELECT is a consistent non-locking read on InnoDB and PostgreSQL, so it never
// waits for nor blocks relays claiming rows with FOR UPDATE SKIP LOCKED. A row claimed a moment ago
// is still counted (PROCESSING is pending until the relay marks it SENT), which errs toward
// CATCHING_UP, never toward FRESH. Served by the (status, due_at) index; SENT rows are not read.
import type { Knex } from 'knex';
import { applyScope, type PendingScope } from '../../pendingScope';

export const OUTBOX_PENDING = ['NEW', 'PROCESSING', 'FAILED'] as const;
export const OUTBOX_STUCK = ['PARKED'] as const;

export interface PendingCountRow {
  aggregateId?: string;
  status: string;
  n: number;
  oldest: Date;
}

export async function countPendingOutboxEvents(
  db: Knex,
  scope: PendingScope,
  /** The domain's scope fields (applyScope refuses any other). */
  fields: readonly string[],
  aggregateIds?: string[] | 'each',
): Promise<PendingCountRow[]> {
  if (Array.isArray(aggregateIds) && aggregateIds.length === 0) return [];
  const q = db('outbox_events')
    .select('status', db.raw('COUNT(*) AS n'), db.raw('MIN(created_at) AS oldest'))
    .whereIn('status', [...OUTBOX_PENDING, ...OUTBOX_STUCK])
    .groupBy('status');
  applyScope(db, q, scope, fields);
  // 'each': per aggregate over the whole scope (a reconciliation's in-flight set; few rows are unsent).
  if (aggregateIds) q.select('aggregate_id').groupBy('aggregate_id');
  if (Array.isArray(aggregateIds)) q.whereIn('aggregate_id', aggregateIds);
  const rows = (await q) as { status: string; n: number | string; oldest: Date | string; aggregate_id?: string }[];
  return rows.map((r) => ({ aggregateId: r.aggregate_id, status: r.status, n: Number(r.n), oldest: new Date(r.oldest) }));
}
