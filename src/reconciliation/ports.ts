// The reconciliation engine's ports. A SourceReader answers for the authoritative store of one domain
// (every fitness shard, or the orders database); a TargetReader for a ClickHouse projection table
// (the live one, or a rebuild's shadow). Both compute canonical digests in their own engine's SQL.
import { unappliedMessages } from '../projections/offsetLag';
import type { Domain, DomainEvent } from '../publication/event';
import type { BucketDigest } from './canonical/canonical';
import type { CompareLevel } from './canonical/fields';
import type { RecordState, SourceRevision, TargetState } from './model';
import type { Scope } from './scope';

/** Which aggregates a state read covers: all in scope, those in some buckets, or named ids. */
export interface StateFilter {
  buckets?: { count: number; ids: number[] };
  ids?: string[];
  /** Also return canonical lines (to name differing fields); only for small reads. */
  withLines?: boolean;
}

export interface SourceReader {
  readonly domain: Domain;
  revision(scope: Scope): Promise<SourceRevision>;
  /** Latest non-deleted aggregates per segment (fitness: projectId; orders: UTC day). */
  counts(scope: Scope): Promise<Map<string, number>>;
  buckets(scope: Scope, level: CompareLevel, bucketCount: number): Promise<BucketDigest[]>;
  states(scope: Scope, level: CompareLevel, filter: StateFilter): Promise<RecordState[]>;
  /** The authoritative latest state of aggregates as their own events (existing version and eventId). */
  events(scope: Scope, ids?: string[]): Promise<DomainEvent[]>;
  /**
   * Opens one consistent snapshot of the scope on every store (a read-only REPEATABLE READ transaction
   * per MySQL shard, one in PostgreSQL), fixed when this resolves: every read through it sees each
   * aggregate at one version, whatever commits meanwhile. The caller must close it.
   */
  openSnapshot(scope: Scope): Promise<SourceSnapshot>;
}

/** The scope's authoritative rows as one snapshot saw them (reads as SourceReader's, without scope). */
export interface SourceSnapshot {
  /** The scope's revision in the snapshot (read first: it is what fixes the snapshot). */
  readonly revision: SourceRevision;
  counts(): Promise<Map<string, number>>;
  buckets(level: CompareLevel, bucketCount: number): Promise<BucketDigest[]>;
  states(level: CompareLevel, filter: StateFilter): Promise<RecordState[]>;
  /** Ends the snapshot's transactions (read-only: nothing to commit); safe to call twice. */
  close(): Promise<void>;
}

export interface TargetReader {
  readonly domain: Domain;
  /** The projection table this reader reads by default. */
  readonly table: string;
  counts(scope: Scope, table?: string): Promise<Map<string, number>>;
  buckets(scope: Scope, level: CompareLevel, bucketCount: number, table?: string): Promise<BucketDigest[]>;
  states(scope: Scope, level: CompareLevel, filter: StateFilter, table?: string): Promise<TargetState[]>;
}

/** The domain topic's partitions as they were when a scan started. */
export interface TopicSnapshot {
  domain: Domain;
  partitions: { partition: number; low: bigint; high: bigint }[];
}

/** Messages of the snapshot not yet applied, given the checkpointed next offset per partition. */
export function unappliedOf(snapshot: TopicSnapshot, applied: Map<number, bigint>): number {
  return snapshot.partitions.reduce((n, p) => n + unappliedMessages(p, applied.get(p.partition)), 0);
}

export interface PipelineProbe {
  /**
   * Publications of the scope still on their way to Kafka (outbox NEW/PROCESSING/FAILED, fallback
   * NOT_PUBLISHED). PARKED and DEAD_LETTER are not counted: they need an operator, so their
   * aggregates are reported (and replayed by a repair) rather than waited for.
   */
  pending(scope: Scope): Promise<number>;
  /** The aggregates those pending publications belong to (the scope's in-flight set). */
  pendingIds(scope: Scope): Promise<Set<string>>;
  /**
   * The log end offset of every partition of the domain's topic, now (with the log start, below which
   * messages have expired): what the projector must have applied before the target may be compared.
   */
  snapshot(domain: Domain): Promise<TopicSnapshot>;
  /**
   * Waits up to `waitMs` until the projector's checkpointed offsets reach the snapshot, partition by
   * partition; returns how many messages of the snapshot it still had to apply (0 = caught up).
   * Messages published after the snapshot are not waited for: a busy topic never reaches its live end.
   */
  behind(snapshot: TopicSnapshot, waitMs: number, signal?: AbortSignal): Promise<number>;
  close?(): Promise<void>;
}
