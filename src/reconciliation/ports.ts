// The reconciliation engine's ports besides a domain's SourceReader (src/domains/contract): a
// TargetReader answers for a ClickHouse projection table (the live one, or a rebuild's shadow) and
// computes canonical digests in ClickHouse SQL; the PipelineProbe says whether the projection is
// merely catching up.
import type { StateFilter } from '../domains/contract/sourceReader';
import type { Domain } from '../publication/event';
import { unappliedMessages } from '../projections/offsetLag';
import type { BucketDigest } from '../domains/contract/canonical';
import type { CompareLevel } from '../domains/contract/canonicalFields';
import type { TargetState } from './model';
import type { Scope } from './scope';

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
