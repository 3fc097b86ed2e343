// SELECT kafka-first fallback rows that are not on Kafka yet, per status (optionally per aggregate).
// Locking: none (non-locking consistent read); relays claim these rows with claim_owner/claim_expires_at
// and are never blocked by it. NOT_PUBLISHED is pending whether or not a relay holds a claim;
// DEAD_LETTER needs an operator. PUBLISHED rows are not read. Served by the (domain, status,
// created_at) index.
import type { Knex } from 'knex';
import type { PendingCountRow } from '../../outbox/sql/countPendingOutboxEvents';
import { applyScope, type PendingScope } from '../../pendingScope';

export const FALLBACK_PENDING = ['NOT_PUBLISHED'] as const;
export const FALLBACK_STUCK = ['DEAD_LETTER'] as const;

export async function countPendingEventPublications(
  db: Knex,
  scope: PendingScope,
  /** The domain's scope fields (applyScope refuses any other). */
  fields: readonly string[],
  aggregateIds?: string[] | 'each',
): Promise<PendingCountRow[]> {
  if (Array.isArray(aggregateIds) && aggregateIds.length === 0) return [];
  const q = db('event_publications')
    .select('status', db.raw('COUNT(*) AS n'), db.raw('MIN(created_at) AS oldest'))
    .whereIn('status', [...FALLBACK_PENDING, ...FALLBACK_STUCK])
    .groupBy('status');
  applyScope(db, q, scope, fields);
  // 'each': per aggregate over the whole scope (a reconciliation's in-flight set; few rows are unsent).
  if (aggregateIds) q.select('aggregate_id').groupBy('aggregate_id');
  if (Array.isArray(aggregateIds)) q.whereIn('aggregate_id', aggregateIds);
  const rows = (await q) as { status: string; n: number | string; oldest: Date | string; aggregate_id?: string }[];
  return rows.map((r) => ({ aggregateId: r.aggregate_id, status: r.status, n: Number(r.n), oldest: new Date(r.oldest) }));
}
