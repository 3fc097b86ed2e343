// The stored state of kafka-first events, for replies to retried requests. A plain snapshot read.
//
// Only events whose direct attempts failed (or that the reconciler rebuilt) have a row. For the
// Publisher-agnostic services that need one answer per event (readPublicationStates), an event with
// no row reads as PUBLISHED_DIRECT: the direct path owned it and left no row. That is the answer in
// every case but one: a FALLBACK_STORE_FAILED event before the reconciler rebuilt its row (which it
// does after PUBLICATION_RECONCILER_GRACE_MS). readPublicationState answers null instead of guessing.
import type { Knex } from 'knex';
import type { PublicationOutcome } from '../publisher';
import type { PublicationStatus } from './publicationRow';

async function storedStates(db: Knex, eventIds: string[]): Promise<Map<string, PublicationStatus>> {
  if (eventIds.length === 0) return new Map();
  const rows = (await db('event_publications').whereIn('event_id', eventIds).select('event_id', 'status')) as {
    event_id: string;
    status: PublicationStatus;
  }[];
  return new Map(rows.map((r) => [r.event_id, r.status]));
}

/** One outcome per eventId, in order: the row's status, or PUBLISHED_DIRECT when there is no row. */
export async function readPublicationStates(db: Knex, eventIds: string[]): Promise<PublicationOutcome[]> {
  const stored = await storedStates(db, eventIds);
  return eventIds.map((eventId) => ({ eventId, state: stored.get(eventId) ?? 'PUBLISHED_DIRECT' }));
}

/** The row's status, or null when the event has no publication row. */
export async function readPublicationState(db: Knex, eventId: string): Promise<PublicationStatus | null> {
  return (await storedStates(db, [eventId])).get(eventId) ?? null;
}
