// The erasure ledger's records (src/erasure/ledger/sql owns the `erasures` table, migration 013) and
// their row mapping. A record is what the runner resumes from and what the operator sees; once
// COMPLETED it keeps no personal data: subjectId is NULL, the subject is only its keyed hash.
import type { ErasureKind, ErasureMode, StoreSearch, StoreStepResult } from '../../domains/contract/erasure';
import type { Domain } from '../../shared/domain';

/** REQUESTED: recorded; ERASING: stores are being erased; VERIFYING: the certificate's search runs (or found something); COMPLETED. */
export type ErasureStatus = 'REQUESTED' | 'ERASING' | 'VERIFYING' | 'COMPLETED';
export const ERASURE_STATUSES: readonly ErasureStatus[] = ['REQUESTED', 'ERASING', 'VERIFYING', 'COMPLETED'];

/** One store's progress: the sum of its erase steps and whether it needs another. */
export interface StoreProgress extends StoreStepResult {
  steps: number;
  at: string;
}

export interface ErasureRecord {
  id: string;
  kind: ErasureKind;
  domain: Domain;
  mode: ErasureMode;
  subjectHash: string;
  /** The person's id while the erasure runs; null once it completed. */
  subjectId: string | null;
  status: ErasureStatus;
  reason: string;
  requestedBy: string;
  requestedAt: Date;
  deadlineAt: Date;
  aggregateIds: string[];
  progress: Record<string, StoreProgress>;
  certificate: StoreSearch[] | null;
  /** Traces the last verification found (0 before one ran and on a clean certificate). */
  findings: number;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  verifiedAt: Date | null;
  completedAt: Date | null;
}

export interface ErasureRow {
  id: string;
  kind: ErasureKind;
  domain: string;
  mode: ErasureMode;
  subject_hash: string;
  subject_id: string | null;
  status: ErasureStatus;
  reason: string;
  requested_by: string;
  requested_at: Date;
  deadline_at: Date;
  aggregate_ids: string[];
  progress: Record<string, StoreProgress>;
  certificate: (Omit<StoreSearch, 'searchedAt'> & { searchedAt: string })[] | null;
  findings: number;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date;
  verified_at: Date | null;
  completed_at: Date | null;
  lease_owner?: string | null;
  lease_until?: Date | null;
}

export function erasureRecord(r: ErasureRow): ErasureRecord {
  return {
    id: r.id,
    kind: r.kind,
    domain: r.domain,
    mode: r.mode,
    subjectHash: r.subject_hash,
    subjectId: r.subject_id,
    status: r.status,
    reason: r.reason,
    requestedBy: r.requested_by,
    requestedAt: r.requested_at,
    deadlineAt: r.deadline_at,
    aggregateIds: r.aggregate_ids,
    progress: r.progress,
    certificate: r.certificate && r.certificate.map((c) => ({ ...c, searchedAt: new Date(c.searchedAt) })),
    findings: r.findings,
    attempts: r.attempts,
    lastError: r.last_error,
    nextAttemptAt: r.next_attempt_at,
    verifiedAt: r.verified_at,
    completedAt: r.completed_at,
  };
}
