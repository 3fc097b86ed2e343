// The reconciliation vocabulary shared by the engine, the ledger, repairs and GraphQL.
import type { Domain } from '../publication/event';
import type { BucketDigest } from '../domains/contract/canonical';
import type { CompareLevel } from '../domains/contract/canonicalFields';
import type { RecordState, SourceRevision } from '../domains/contract/sourceState';

export type ReconcileLevel = 'COUNTS' | CompareLevel;
export const LEVEL_ORDER: readonly ReconcileLevel[] = ['COUNTS', 'IDS', 'CONTENT'];

export type DiscrepancyKind = 'MISSING' | 'STALE_VERSION' | 'CONTENT_MISMATCH' | 'DELETION_NOT_APPLIED' | 'UNEXPECTED_ROW';
export type DiscrepancyStatus = 'OPEN' | 'REPAIRING' | 'RESOLVED';

/**
 * CLEAN: both sides agree at the level reached (at IDS/CONTENT: every aggregate the run did not exclude
 * as changed after its snapshot or in flight). DISCREPANCIES: stored, see the ledger.
 * CATCHING_UP: the projector had not applied the topic up to the run's snapshot of it (and, at COUNTS
 * or in a rebuild's validation, pending publications or young differences): normal delay, nothing
 * stored; retried later. SCOPE_CHANGED: at COUNTS or in a rebuild's validation only, the source
 * changed during every attempt's scan; retried later. FAILED: an engine failed.
 */
export type RunOutcome = 'CLEAN' | 'DISCREPANCIES' | 'CATCHING_UP' | 'SCOPE_CHANGED' | 'FAILED';
/** SCHEDULE: a scope that changed and completed; ROTATION: the re-verification of an unchanged one; EXPIRED_EVENTS: a scope whose events expired unapplied. */
export type RunTrigger = 'OPERATOR' | 'SCHEDULE' | 'ROTATION' | 'EXPIRED_EVENTS' | 'VERIFICATION' | 'REBUILD_VALIDATION';

/** The target's latest version of an aggregate may carry several different contents (equal-version rows). */
export interface TargetState extends RecordState {
  /** Every distinct digest among the physical rows at the latest version. */
  digests: string[];
  lines?: string[];
}

export interface Discrepancy {
  kind: DiscrepancyKind;
  aggregateId: string;
  sourceVersion: number | null;
  targetVersion: number | null;
  sourceDigest: string | null;
  targetDigest: string | null;
  /** Names of the fields that differ (CONTENT_MISMATCH); values are never recorded. */
  differingFields: string[];
  /** Source commit time of the source version (ms), for the grace rule. */
  sourceCommitMs: number | null;
  /** Newest source commit time the target's rows carry (ms). */
  targetCommitMs: number | null;
}

export interface SegmentCount {
  segment: string;
  source: number;
  target: number;
}

export interface BucketSide {
  source: Map<number, BucketDigest>;
  target: Map<number, BucketDigest>;
}

export interface RunResult {
  runId: number;
  domain: Domain;
  scopeKey: string;
  levelRequested: ReconcileLevel;
  levelReached: ReconcileLevel;
  outcome: RunOutcome;
  attempts: number;
  /** Why the run ended as it did (e.g. "3 publications pending in scope"). Safe text. */
  note: string;
  revisionBefore: SourceRevision | null;
  revisionAfter: SourceRevision | null;
  counts: SegmentCount[];
  bucketsCompared: number;
  bucketsMismatched: number;
  discrepancies: Discrepancy[];
  startedAt: Date;
  finishedAt: Date;
}
