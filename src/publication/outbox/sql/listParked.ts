// SQL: list PARKED rows for operators (what is stuck, since when, and why), oldest first, optionally
// after a keyset position (created_at, event_id): the last row of the previous page.
//
// Locking: a non-locking read (a plain SELECT at the pool's READ COMMITTED) of the PARKED range of the
// (status, due_at) index; it blocks no relay. The keyset condition is spelled out rather than a
// row-value comparison so that MySQL, MariaDB and PostgreSQL plan it alike. Only safe error summaries
// are stored, so nothing here can leak payloads or raw exception text.
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

/** A position in the list: the (created_at, event_id) of the last row already seen. */
export interface ParkedKey {
  createdAt: Date;
  eventId: string;
}

const COLUMNS = [
  'event_id',
  'domain',
  'aggregate_id',
  'version',
  'attempts',
  'last_error_code',
  'last_error_summary',
  'created_at',
  'parked_at',
  'replay_count',
];

export async function listParked(db: Knex, filter: ParkedFilter, limit: number, after?: ParkedKey): Promise<ParkedEvent[]> {
  const q = applyParkedFilter(db(OUTBOX_TABLE).select(COLUMNS), filter);
  if (after)
    q.andWhere((w) =>
      w
        .where('created_at', '>', after.createdAt)
        .orWhere((x) => x.where('created_at', '=', after.createdAt).andWhere('event_id', '>', after.eventId)),
    );
  const rows = (await q.orderBy([{ column: 'created_at' }, { column: 'event_id' }]).limit(limit)) as Record<string, unknown>[];
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
