// SQL: counts per unsent status and the age of the oldest unsent row, for the gauges.
//
// Locking: non-locking reads. Counts come from the (status, due_at) index alone, over the four unsent
// statuses (never the SENT rows, which are most of the table); a NEW row's due_at is its created_at,
// so the oldest NEW row is read there too. Only PROCESSING and FAILED rows (in flight or waiting for
// a retry: a few batches normally) are visited for their created_at. Ages are computed by the
// database against its own clock, so relay host clock skew does not distort them.
import type { Knex } from 'knex';
import { dialectOf } from '../dialect';
import { OUTBOX_TABLE } from '../outboxEvent';

export interface OutboxStats {
  counts: Record<'NEW' | 'PROCESSING' | 'FAILED' | 'PARKED', number>;
  /** Seconds since the oldest NEW/PROCESSING/FAILED row was written; 0 when there is none. */
  oldestUnsentAgeSeconds: number;
  /** PROCESSING rows whose lease has expired (their relay died or stalled): the next claim takes them. */
  expiredClaims: number;
}

export async function readOutboxStats(db: Knex): Promise<OutboxStats> {
  const rows = (await db(OUTBOX_TABLE)
    .select('status')
    .count({ n: '*' })
    .min({ oldest: 'due_at' })
    .whereIn('status', ['NEW', 'PROCESSING', 'FAILED', 'PARKED'])
    .groupBy('status')) as {
    status: keyof OutboxStats['counts'];
    n: number | string;
    oldest: Date | null;
  }[];
  const counts: OutboxStats['counts'] = { NEW: 0, PROCESSING: 0, FAILED: 0, PARKED: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  if (counts.NEW + counts.PROCESSING + counts.FAILED === 0) return { counts, oldestUnsentAgeSeconds: 0, expiredClaims: 0 };
  const now = dialectOf(db) === 'mysql' ? 'NOW(3)' : 'now()';
  // Every time here is a database value converted by the same driver, so differences are exact.
  const res = (await db.raw(
    `SELECT ${now} AS now,
       (SELECT MIN(created_at) FROM ${OUTBOX_TABLE} WHERE status IN ('PROCESSING', 'FAILED')) AS oldest_claimed,
       (SELECT COUNT(*) FROM ${OUTBOX_TABLE} WHERE status = 'PROCESSING' AND due_at <= ${now}) AS expired`,
  )) as unknown;
  type Row = { now: Date; oldest_claimed: Date | null; expired: string | number };
  const row = (Array.isArray(res) ? (res as [Row[]])[0][0] : (res as { rows: Row[] }).rows[0])!;
  const oldestNew = rows.find((r) => r.status === 'NEW')?.oldest;
  const oldest = Math.min(...[oldestNew, row.oldest_claimed].filter((d): d is Date => d != null).map((d) => new Date(d).getTime()));
  const age = Number.isFinite(oldest) ? (new Date(row.now).getTime() - oldest) / 1000 : 0;
  return { counts, oldestUnsentAgeSeconds: Math.max(0, age), expiredClaims: Number(row.expired) };
}
