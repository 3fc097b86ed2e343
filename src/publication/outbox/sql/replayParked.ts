// SQL: return PARKED rows to NEW on an operator's request.
//
// Locking: one short transaction: the matching PARKED rows are locked with FOR UPDATE SKIP LOCKED
// (a concurrent replay takes the others), then reset to NEW with attempts 0 and no claim, retry
// time or lease, and replay_count + 1 / replayed_at recorded. The stored record is untouched, so the
// event goes out again with its original eventId and version. last_error_* are kept as history
// until the next attempt overwrites them. The status guard makes a replay of an event that is not
// PARKED a no-op.
import type { Knex } from 'knex';
import { dialectOf, nowSql, outboxById } from '../dialect';
import { OUTBOX_TABLE } from '../outboxEvent';

export interface ParkedFilter {
  domain?: string;
  eventIds?: string[];
  aggregateId?: string;
  /** Only rows parked with this error code. */
  errorCode?: string;
}

export interface ReplayedEvent {
  eventId: string;
  domain: string;
  aggregateId: string;
  version: number;
}

export function applyParkedFilter(q: Knex.QueryBuilder, f: ParkedFilter): Knex.QueryBuilder {
  q.where('status', 'PARKED');
  if (f.domain) q.andWhere('domain', f.domain);
  if (f.eventIds) q.whereIn('event_id', f.eventIds);
  if (f.aggregateId) q.andWhere('aggregate_id', f.aggregateId);
  if (f.errorCode) q.andWhere('last_error_code', f.errorCode);
  return q;
}

export async function replayParked(db: Knex, filter: ParkedFilter, limit: number): Promise<ReplayedEvent[]> {
  return db.transaction(async (trx) => {
    const rows = (await applyParkedFilter(trx(OUTBOX_TABLE).select('id', 'event_id', 'domain', 'aggregate_id', 'version'), filter)
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()) as { id: number | string; event_id: string; domain: string; aggregate_id: string; version: number }[];
    if (rows.length === 0) return [];
    await outboxById(trx, OUTBOX_TABLE)
      .whereIn(
        'id',
        rows.map((r) => r.id),
      )
      .andWhere('status', 'PARKED')
      .update({
        status: 'NEW',
        attempts: 0,
        claim_token: null,
        lease_expires_at: null,
        next_retry_at: null,
        parked_at: null,
        replayed_at: trx.raw(nowSql(dialectOf(trx))),
        replay_count: trx.raw('replay_count + 1'),
      });
    return rows.map((r) => ({ eventId: r.event_id, domain: r.domain, aggregateId: r.aggregate_id, version: Number(r.version) }));
  });
}
