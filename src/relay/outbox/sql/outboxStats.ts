// SQL: counts per unsent status and the age of the oldest unsent row, for the gauges.
//
// Locking: non-locking reads. The GROUP BY reads only the (status, created_at) index ranges of the
// four unsent statuses (never the SENT rows, which are most of the table), and the age is computed
// by the database against its own clock, so relay host clock skew does not distort it.
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
  const rows = (await db(OUTBOX_TABLE).select('status').count({ n: '*' }).min({ oldest: 'created_at' }).whereIn('status', ['NEW', 'PROCESSING', 'FAILED', 'PARKED']).groupBy('status')) as {
    status: keyof OutboxStats['counts'];
    n: number | string;
    oldest: Date | null;
  }[];
  const counts: OutboxStats['counts'] = { NEW: 0, PROCESSING: 0, FAILED: 0, PARKED: 0 };
  let oldest: Date | undefined;
  for (const r of rows) {
    counts[r.status] = Number(r.n);
    if (r.status !== 'PARKED' && r.oldest && (!oldest || new Date(r.oldest) < oldest)) oldest = new Date(r.oldest);
  }
  if (!oldest) return { counts, oldestUnsentAgeSeconds: 0, expiredClaims: 0 };
  // One more indexed read, (status, lease_expires_at), both values against the database clock.
  const mysql = dialectOf(db) === 'mysql';
  const sql = mysql
    ? "SELECT TIMESTAMPDIFF(MICROSECOND, ?, NOW(3)) / 1000000 AS age, (SELECT COUNT(*) FROM outbox_events WHERE status = 'PROCESSING' AND lease_expires_at <= NOW(3)) AS expired"
    : "SELECT EXTRACT(EPOCH FROM (now() - ?::timestamptz)) AS age, (SELECT COUNT(*) FROM outbox_events WHERE status = 'PROCESSING' AND lease_expires_at <= now()) AS expired";
  const res = (await db.raw(sql, [oldest])) as unknown;
  const row = mysql ? (res as [{ age: string | number; expired: string | number }[]])[0][0] : (res as { rows: { age: string | number; expired: string | number }[] }).rows[0];
  return { counts, oldestUnsentAgeSeconds: Math.max(0, Number(row?.age ?? 0)), expiredClaims: Number(row?.expired ?? 0) };
}
