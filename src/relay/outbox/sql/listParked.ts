// SQL: list PARKED rows for operators (what is stuck, since when, and why).
//
// Locking: a non-locking read of the PARKED range of the (status, due_at) index; only safe error summaries are
// stored, so nothing here can leak payloads or raw exception text.
import type { Knex } from 'knex';
import { OUTBOX_TABLE } from '../outboxEvent';
import { applyParkedFilter, type ParkedFilter } from './replayParked';

export interface ParkedEvent {
  eventId: string;
  domain: string;
  aggregateId: string;
  version: number;
  attempts: number;
  lastErrorCode: string | null;
  lastErrorSummary: string | null;
  createdAt: Date;
  parkedAt: Date | null;
  replayCount: number;
}

export async function listParked(db: Knex, filter: ParkedFilter, limit: number): Promise<ParkedEvent[]> {
  const rows = (await applyParkedFilter(
    db(OUTBOX_TABLE).select('event_id', 'domain', 'aggregate_id', 'version', 'attempts', 'last_error_code', 'last_error_summary', 'created_at', 'parked_at', 'replay_count'),
    filter,
  )
    .orderBy('created_at')
    .limit(limit)) as Record<string, unknown>[];
  return rows.map((r) => ({
    eventId: String(r.event_id),
    domain: String(r.domain),
    aggregateId: String(r.aggregate_id),
    version: Number(r.version),
    attempts: Number(r.attempts),
    lastErrorCode: (r.last_error_code as string | null) ?? null,
    lastErrorSummary: (r.last_error_summary as string | null) ?? null,
    createdAt: new Date(r.created_at as Date),
    parkedAt: r.parked_at ? new Date(r.parked_at as Date) : null,
    replayCount: Number(r.replay_count),
  }));
}
