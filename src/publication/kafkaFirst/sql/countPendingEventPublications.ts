// SELECT kafka-first fallback rows that are not on Kafka yet, per status (optionally per aggregate).
// Locking: none (non-locking consistent read); relays claim these rows with claim_owner/claim_expires_at
// and are never blocked by it. NOT_PUBLISHED is pending whether or not a relay holds a claim;
// DEAD_LETTER needs an operator. PUBLISHED rows are not read. Served by the (domain, status,
// created_at) index.
import type { Knex } from 'knex';
import { countPendingRows, type PendingCountRow, type PendingScope } from '../../pendingScope';

export const FALLBACK_PENDING = ['NOT_PUBLISHED'] as const;
export const FALLBACK_STUCK = ['DEAD_LETTER'] as const;

export function countPendingEventPublications(
  db: Knex,
  scope: PendingScope,
  /** The domain's scope fields (applyScope refuses any other). */
  fields: readonly string[],
  aggregateIds?: string[] | 'each',
): Promise<PendingCountRow[]> {
  return countPendingRows(db, 'event_publications', [...FALLBACK_PENDING, ...FALLBACK_STUCK], scope, fields, aggregateIds);
}
