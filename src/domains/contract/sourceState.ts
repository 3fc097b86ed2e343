// What a domain's authoritative store says about a reconciliation scope: its revision (did anything
// commit during a scan?) and each aggregate's latest state as the comparison sees it. Defined here,
// below the domains, because every domain's source computes them in its own engine's SQL and the
// reconciliation engine compares them without knowing which domain answered.

/** A scope's source revision: the sum of every aggregate's version strictly grows with each commit. */
export interface SourceRevision {
  /** Aggregates in scope, live and deleted. */
  aggregates: number;
  /** Live (not deleted) aggregates. */
  live: number;
  versionSum: number;
  /** Newest source commit time in scope (epoch ms), 0 when empty. */
  maxCommitMs: number;
}

export function sameRevision(a: SourceRevision, b: SourceRevision): boolean {
  return a.aggregates === b.aggregates && a.versionSum === b.versionSum && a.maxCommitMs === b.maxCommitMs && a.live === b.live;
}

/** One aggregate's latest state on one side, as the comparison sees it. */
export interface RecordState {
  id: string;
  version: number;
  isDeleted: boolean;
  /** Digest of the canonical line at the compared level. */
  digest: string;
  /** Source: commit time of this version (epoch ms). Target: newest source_commit_ms among its rows. */
  commitMs: number;
  /** The canonical line (for naming differing fields; never stored or shown). */
  line?: string;
}
