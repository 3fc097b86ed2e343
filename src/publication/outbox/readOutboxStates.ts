// SQL: the publication state of known events, for mutation payloads (e.g. an idempotent replay).
//
// Locking: a plain non-locking read; the answer is a snapshot and may be stale by the time the
// client sees it. An eventId with no row was committed earlier and its SENT row has since been
// removed by retention cleanup (only SENT rows are ever deleted), so it reads as SENT.
import type { Knex } from 'knex';
import type { PublicationOutcome } from '../publisher';
import { OUTBOX_TABLE, type OutboxStatus } from './outboxRow';

export async function readOutboxStates(db: Knex, eventIds: string[]): Promise<PublicationOutcome[]> {
  if (eventIds.length === 0) return [];
  const rows: { event_id: string; status: OutboxStatus }[] = await db(OUTBOX_TABLE)
    .whereIn('event_id', eventIds)
    .select('event_id', 'status');
  const byId = new Map(rows.map((r) => [r.event_id, r.status]));
  return eventIds.map((eventId) => ({ eventId, state: byId.get(eventId) ?? 'SENT' }));
}
