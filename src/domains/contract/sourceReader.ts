// A domain's SourceReader: answers reconciliation's questions about one scope from the domain's
// authoritative store (every fitness shard, or the orders database), computing canonical digests in
// that engine's SQL. Defined below the domains so each domain implements it in its own folder and the
// reconciliation engine calls it without knowing which domain answers.
import type { Domain, DomainEvent } from '../../publication/event';
import type { BucketDigest } from './canonical';
import type { CompareLevel } from './canonicalFields';
import type { ScopeBase } from './scope';
import type { RecordState, SourceRevision } from './sourceState';

/** Which aggregates a state read covers: all in scope, those in some buckets, or named ids. */
export interface StateFilter {
  buckets?: { count: number; ids: number[] };
  ids?: string[];
  /** Also return canonical lines (to name differing fields); only for small reads. */
  withLines?: boolean;
}

export interface SourceReader {
  readonly domain: Domain;
  revision(scope: ScopeBase): Promise<SourceRevision>;
  /** Latest non-deleted aggregates per segment (fitness: projectId; orders: UTC day). */
  counts(scope: ScopeBase): Promise<Map<string, number>>;
  buckets(scope: ScopeBase, level: CompareLevel, bucketCount: number): Promise<BucketDigest[]>;
  states(scope: ScopeBase, level: CompareLevel, filter: StateFilter): Promise<RecordState[]>;
  /** The authoritative latest state of aggregates as their own events (existing version and eventId). */
  events(scope: ScopeBase, ids?: string[]): Promise<DomainEvent[]>;
  /**
   * Opens one consistent snapshot of the scope on every store (a read-only REPEATABLE READ transaction
   * per MySQL shard, one in PostgreSQL), fixed when this resolves: every read through it sees each
   * aggregate at one version, whatever commits meanwhile. The caller must close it.
   */
  openSnapshot(scope: ScopeBase): Promise<SourceSnapshot>;
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
