// The ledger's records (what operators see) and their row mappings. PostgreSQL returns bigint as a
// string; every id here is below 2^53.
import type { Domain } from '../../publication/event';
import type { DiscrepancyKind, DiscrepancyStatus, ReconcileLevel, RunOutcome, RunTrigger, SegmentCount } from '../model';
import type { SourceRevision } from '../../domains/contract/sourceState';

export type RepairAction = 'REPLAY' | 'TOMBSTONE' | 'REBUILD' | 'INVESTIGATE' | 'REMOVE_UNEXPECTED' | 'QUARANTINE_SWEEP';
export type RepairOutcome = 'SENT' | 'COMPLETED' | 'REFUSED' | 'FAILED';
export type Verification = 'PENDING' | 'PASSED' | 'FAILED' | 'NOT_APPLICABLE';
export type RebuildStatus = 'RUNNING' | 'VERIFIED' | 'FAILED';

export interface RunRecord {
  id: number;
  domain: Domain;
  scopeKey: string;
  levelRequested: ReconcileLevel;
  levelReached: ReconcileLevel | null;
  trigger: RunTrigger;
  outcome: RunOutcome | null;
  attempts: number;
  note: string | null;
  revisionBefore: SourceRevision | null;
  revisionAfter: SourceRevision | null;
  counts: SegmentCount[];
  bucketsCompared: number;
  bucketsMismatched: number;
  discrepanciesFound: number;
  /** Aggregates left out because they changed after the run's source snapshot. */
  excludedChangedAfterSnapshot: number;
  /** Aggregates left out because their newer version was still on its way (pending or within the grace period). */
  excludedInFlight: number;
  requestedBy: string;
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  errorCode: string | null;
  errorSummary: string | null;
}

export interface DiscrepancyRecord {
  id: number;
  domain: Domain;
  scopeKey: string;
  scope: Record<string, unknown>;
  aggregateId: string;
  kind: DiscrepancyKind;
  status: DiscrepancyStatus;
  sourceVersion: number | null;
  targetVersion: number | null;
  sourceDigest: string | null;
  targetDigest: string | null;
  differingFields: string[];
  firstSeenAt: Date;
  lastSeenAt: Date;
  seenCount: number;
  firstRunId: number;
  lastRunId: number;
  resolvedAt: Date | null;
  resolution: string | null;
}

export interface RepairRecord {
  id: number;
  discrepancyId: number | null;
  domain: Domain;
  scopeKey: string;
  scope: Record<string, unknown>;
  action: RepairAction;
  reason: string;
  aggregateId: string | null;
  sourceVersion: number | null;
  targetVersion: number | null;
  eventId: string | null;
  rebuildId: number | null;
  requestedBy: string;
  outcome: RepairOutcome;
  outcomeNote: string | null;
  verification: Verification;
  verificationAttempts: number;
  verifiedAt: Date | null;
  errorCode: string | null;
  errorSummary: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface RebuildRecord {
  id: number;
  domain: Domain;
  scopeKey: string;
  scope: Record<string, unknown>;
  status: RebuildStatus;
  phase: string;
  shadowTable: string;
  /** ClickHouse UUID of the shadow's storage table (Atomic databases), to tell after a crash whether the swap happened. */
  shadowUuid: string | null;
  retiredTable: string | null;
  sourceRows: number;
  quarantined: number;
  requestedBy: string;
  reason: string;
  validation: Record<string, unknown> | null;
  startedAt: Date;
  swappedAt: Date | null;
  finishedAt: Date | null;
  errorCode: string | null;
  errorSummary: string | null;
}

type Row = Record<string, unknown>;
const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const dateOrNull = (v: unknown): Date | null => (v ? new Date(v as string) : null);
const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

export function runOf(r: Row): RunRecord {
  return {
    id: num(r.id),
    domain: r.domain as Domain,
    scopeKey: String(r.scope_key),
    levelRequested: r.level_requested as ReconcileLevel,
    levelReached: (r.level_reached as ReconcileLevel | null) ?? null,
    trigger: r.trigger as RunTrigger,
    outcome: (r.outcome as RunOutcome | null) ?? null,
    attempts: num(r.attempts),
    note: (r.note as string | null) ?? null,
    revisionBefore: r.revision_before ? json<SourceRevision>(r.revision_before) : null,
    revisionAfter: r.revision_after ? json<SourceRevision>(r.revision_after) : null,
    counts: json<SegmentCount[]>(r.counts ?? []),
    bucketsCompared: num(r.buckets_compared),
    bucketsMismatched: num(r.buckets_mismatched),
    discrepanciesFound: num(r.discrepancies_found),
    excludedChangedAfterSnapshot: num(r.excluded_changed ?? 0),
    excludedInFlight: num(r.excluded_in_flight ?? 0),
    requestedBy: String(r.requested_by),
    startedAt: new Date(r.started_at as string),
    finishedAt: dateOrNull(r.finished_at),
    durationMs: numOrNull(r.duration_ms),
    errorCode: (r.error_code as string | null) ?? null,
    errorSummary: (r.error_summary as string | null) ?? null,
  };
}

export function discrepancyOf(r: Row): DiscrepancyRecord {
  return {
    id: num(r.id),
    domain: r.domain as Domain,
    scopeKey: String(r.scope_key),
    scope: json<Record<string, unknown>>(r.scope),
    aggregateId: String(r.aggregate_id),
    kind: r.kind as DiscrepancyKind,
    status: r.status as DiscrepancyStatus,
    sourceVersion: numOrNull(r.source_version),
    targetVersion: numOrNull(r.target_version),
    sourceDigest: (r.source_digest as string | null) ?? null,
    targetDigest: (r.target_digest as string | null) ?? null,
    differingFields: (r.differing_fields as string[] | null) ?? [],
    firstSeenAt: new Date(r.first_seen_at as string),
    lastSeenAt: new Date(r.last_seen_at as string),
    seenCount: num(r.seen_count),
    firstRunId: num(r.first_run_id),
    lastRunId: num(r.last_run_id),
    resolvedAt: dateOrNull(r.resolved_at),
    resolution: (r.resolution as string | null) ?? null,
  };
}

export function repairOf(r: Row): RepairRecord {
  return {
    id: num(r.id),
    discrepancyId: numOrNull(r.discrepancy_id),
    domain: r.domain as Domain,
    scopeKey: String(r.scope_key),
    scope: json<Record<string, unknown>>(r.scope),
    action: r.action as RepairAction,
    reason: String(r.reason),
    aggregateId: (r.aggregate_id as string | null) ?? null,
    sourceVersion: numOrNull(r.source_version),
    targetVersion: numOrNull(r.target_version),
    eventId: (r.event_id as string | null) ?? null,
    rebuildId: numOrNull(r.rebuild_id),
    requestedBy: String(r.requested_by),
    outcome: r.outcome as RepairOutcome,
    outcomeNote: (r.outcome_note as string | null) ?? null,
    verification: r.verification as Verification,
    verificationAttempts: num(r.verification_attempts),
    verifiedAt: dateOrNull(r.verified_at),
    errorCode: (r.error_code as string | null) ?? null,
    errorSummary: (r.error_summary as string | null) ?? null,
    createdAt: new Date(r.created_at as string),
    updatedAt: new Date(r.updated_at as string),
  };
}

export function rebuildOf(r: Row): RebuildRecord {
  return {
    id: num(r.id),
    domain: r.domain as Domain,
    scopeKey: String(r.scope_key),
    scope: json<Record<string, unknown>>(r.scope),
    status: r.status as RebuildStatus,
    phase: String(r.phase),
    shadowTable: String(r.shadow_table),
    shadowUuid: (r.shadow_uuid as string | null) ?? null,
    retiredTable: (r.retired_table as string | null) ?? null,
    sourceRows: num(r.source_rows),
    quarantined: num(r.quarantined),
    requestedBy: String(r.requested_by),
    reason: String(r.reason),
    validation: r.validation ? json<Record<string, unknown>>(r.validation) : null,
    startedAt: new Date(r.started_at as string),
    swappedAt: dateOrNull(r.swapped_at),
    finishedAt: dateOrNull(r.finished_at),
    errorCode: (r.error_code as string | null) ?? null,
    errorSummary: (r.error_summary as string | null) ?? null,
  };
}
