// SQL: write a runner's step back and release its lease.
//
// Locking: one UPDATE fenced by the lease owner: a runner whose lease ran out (it was paused longer than
// ERASURE_LEASE_MS and another took the row) writes nothing and learns so (false). Progress is saved
// after every step, also a failed one, so a crash loses at most the step in hand, which is idempotent.
import type { Knex } from 'knex';
import type { StoreSearch } from '../../../domains/contract/erasure';
import type { ErasureStatus, StoreProgress } from '../records';

export interface ErasureStep {
  status: ErasureStatus;
  progress: Record<string, StoreProgress>;
  certificate?: StoreSearch[] | null;
  findings?: number;
  lastError: string | null;
  attempts: number;
  nextAttemptAt: Date;
  verifiedAt?: Date;
  completedAt?: Date;
  /** Set at completion: the person's id is no longer kept. */
  forgetSubject?: boolean;
}

export async function saveErasure(db: Knex, id: string, owner: string, s: ErasureStep): Promise<boolean> {
  const n = await db('erasures')
    .where({ id, lease_owner: owner.slice(0, 128) })
    .update({
      status: s.status,
      progress: JSON.stringify(s.progress),
      ...(s.certificate !== undefined ? { certificate: s.certificate === null ? null : JSON.stringify(s.certificate) } : {}),
      ...(s.findings !== undefined ? { findings: s.findings } : {}),
      last_error: s.lastError,
      attempts: s.attempts,
      next_attempt_at: s.nextAttemptAt,
      ...(s.verifiedAt ? { verified_at: s.verifiedAt } : {}),
      ...(s.completedAt ? { completed_at: s.completedAt } : {}),
      ...(s.forgetSubject ? { subject_id: null } : {}),
      lease_owner: null,
      lease_until: null,
    });
  return n === 1;
}
