// SQL: record an erasure request, or return the one already running for the same subject.
//
// Locking: one INSERT ... ON CONFLICT DO NOTHING against the partial unique index on (kind,
// subject_hash) of unfinished rows (migration 013): two gateways asked at once for the same student
// insert one row between them; the loser reads the winner's row. A completed erasure does not conflict,
// so a student who came back can be erased again. The rate limit counts requests of the last minute
// across every gateway (index erasures_requested_at); two racing requests may both pass it, so the
// limit can be exceeded by the number of gateways at once, never more.
import type { Knex } from 'knex';
import { erasureRecord, type ErasureRecord, type ErasureRow } from '../records';

export interface ErasureRequest {
  id: string;
  kind: ErasureRecord['kind'];
  domain: string;
  mode: ErasureRecord['mode'];
  subjectHash: string;
  subjectId: string;
  reason: string;
  requestedBy: string;
  requestedAt: Date;
  deadlineAt: Date;
  aggregateIds: readonly string[];
}

/** The new erasure (created: true) or the running one for the same subject (created: false). */
export async function requestErasure(db: Knex, r: ErasureRequest): Promise<{ record: ErasureRecord; created: boolean }> {
  const inserted = await db.raw<{ rows: ErasureRow[] }>(
    `INSERT INTO erasures (id, kind, domain, mode, subject_hash, subject_id, status, reason, requested_by, requested_at, deadline_at,
                           aggregate_ids, progress, next_attempt_at)
     VALUES (?, ?, ?, ?, ?, ?, 'REQUESTED', ?, ?, ?, ?, ?::jsonb, '{}'::jsonb, ?)
     ON CONFLICT (kind, subject_hash) WHERE status <> 'COMPLETED' DO NOTHING
     RETURNING *`,
    [
      r.id,
      r.kind,
      r.domain,
      r.mode,
      r.subjectHash,
      r.subjectId,
      r.reason,
      r.requestedBy.slice(0, 128),
      r.requestedAt,
      r.deadlineAt,
      JSON.stringify(r.aggregateIds),
      r.requestedAt,
    ],
  );
  const row = inserted.rows[0];
  if (row) return { record: erasureRecord(row), created: true };
  const running = await runningErasureOf(db, r.kind, r.subjectHash);
  // The running one completed between our insert and this read: ask again.
  if (!running) return requestErasure(db, r);
  return { record: running, created: false };
}

/** The unfinished erasure of a subject, if any. */
export async function runningErasureOf(db: Knex, kind: string, subjectHash: string): Promise<ErasureRecord | undefined> {
  const row = await db<ErasureRow>('erasures')
    .where({ kind: kind as ErasureRow['kind'], subject_hash: subjectHash })
    .whereNot('status', 'COMPLETED')
    .first();
  return row && erasureRecord(row);
}

/** Requests recorded since a time (the per-minute limit). */
export async function countRequestedSince(db: Knex, since: Date): Promise<number> {
  const r = await db('erasures').where('requested_at', '>', since).count<{ n: string }[]>({ n: '*' });
  return Number(r[0]?.n ?? 0);
}
