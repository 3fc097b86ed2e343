// SQL: is there anything for a claim to take? A cheap look before the claim transaction.
//
// Locking: none. One autocommit statement of three EXISTS probes, each on the same (status, due_at)
// index ranges the claim reads (NEW rows; FAILED rows due for retry; PROCESSING rows whose lease expired), stopping at
// the first row found. An idle relay polls every RELAY_POLL_INTERVAL_MS; without this look every poll
// was a whole claim transaction (isolation level, BEGIN, three locking reads, COMMIT: six round
// trips) on every store, which on a small machine took CPU from the writes. A row committed just
// after the look is found by the next poll; a false "yes" only costs the claim it would have run.
import type { Knex } from 'knex';
import { dialectOf, nowSql } from '../dialect';
import { OUTBOX_TABLE } from '../outboxEvent';

export async function hasDueRows(db: Knex): Promise<boolean> {
  const now = nowSql(dialectOf(db));
  const t = OUTBOX_TABLE;
  const result = await db.raw(
    `SELECT (EXISTS (SELECT 1 FROM ${t} WHERE status = 'NEW')
          OR EXISTS (SELECT 1 FROM ${t} WHERE status = 'FAILED' AND due_at <= ${now})
          OR EXISTS (SELECT 1 FROM ${t} WHERE status = 'PROCESSING' AND due_at <= ${now})) AS due`,
  );
  // mysql2: [rows, fields] with due 0/1; pg: { rows } with due true/false.
  const rows = (Array.isArray(result) ? result[0] : (result as { rows: unknown[] }).rows) as { due: unknown }[];
  const due = rows[0]?.due;
  return due === true || due === 1 || due === '1';
}
