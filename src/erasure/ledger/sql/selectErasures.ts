// SQL: the operator's reads of the erasure ledger and the alert counts.
//
// Index: the primary key for one erasure; a page walks requested_at DESC, id DESC (the requested_at
// index) with a keyset cursor; the alert counts use the partial due index (unfinished rows only).
import type { Knex } from 'knex';
import { erasureRecord, type ErasureRecord, type ErasureRow } from '../records';

export async function erasureById(db: Knex, id: string): Promise<ErasureRecord | undefined> {
  const row = await db<ErasureRow>('erasures').where({ id }).first();
  return row && erasureRecord(row);
}

/** Newest first; `before` continues below the given (requestedAt, id). */
export async function erasurePage(db: Knex, first: number, before?: { requestedAt: Date; id: string }): Promise<ErasureRecord[]> {
  const q = db<ErasureRow>('erasures').orderBy([
    { column: 'requested_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
  if (before) q.whereRaw('(requested_at, id) < (?, ?)', [before.requestedAt, before.id]);
  return (await q.limit(first)).map(erasureRecord);
}

/** Unfinished erasures past their deadline, and those whose last verification found something. */
export async function countErasureAlerts(db: Knex, now: Date): Promise<{ overdue: number; withFindings: number }> {
  const r = await db.raw<{ rows: { overdue: string; with_findings: string }[] }>(
    `SELECT count(*) FILTER (WHERE deadline_at < ?) AS overdue, count(*) FILTER (WHERE findings > 0) AS with_findings
       FROM erasures WHERE status <> 'COMPLETED'`,
    [now],
  );
  return { overdue: Number(r.rows[0]?.overdue ?? 0), withFindings: Number(r.rows[0]?.with_findings ?? 0) };
}
