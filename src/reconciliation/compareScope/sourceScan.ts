// Step 1 of a comparison attempt (../compareScope.ts): nothing of the scope may still be on its way to
// Kafka; then the topic's end offsets are recorded (the snapshot) and the source is scanned, bracketed
// by revisions. Every change the scan sees was committed before the second revision read; the
// revisions being equal, it was committed before the first, so before the pending check: it was on
// Kafka, below the snapshot.
import { combineBuckets, type BucketDigest } from '../../domains/contract/canonical';
import type { CompareLevel } from '../../domains/contract/canonicalFields';
import type { SourceReader } from '../../domains/contract/sourceReader';
import { sameRevision, type RecordState, type SourceRevision } from '../../domains/contract/sourceState';
import type { PipelineProbe, TopicSnapshot } from '../ports';
import type { Scope } from '../scope';

export interface SourceScanDeps {
  source: SourceReader;
  pipeline: PipelineProbe;
  settings: { directCompareMax: number; bucketCount: number };
}

/** The source side of an attempt, or why the attempt cannot go on. */
export type SourceScan =
  | { kind: 'pending'; before: SourceRevision; pending: number }
  | { kind: 'changed'; before: SourceRevision; after: SourceRevision }
  | {
      kind: 'scanned';
      before: SourceRevision;
      after: SourceRevision;
      snapshot: TopicSnapshot;
      counts: Map<string, number>;
      /** Bucket digests first: the scope has more aggregates than directCompareMax. */
      bucketed: boolean;
      buckets?: Map<number, BucketDigest>;
      /** Every aggregate's state, when compared directly. */
      all?: RecordState[];
    };

/** `level` undefined: counts only. */
export async function scanSource(d: SourceScanDeps, scope: Scope, level: CompareLevel | undefined): Promise<SourceScan> {
  const before = await d.source.revision(scope);
  const pending = await d.pipeline.pending(scope);
  if (pending > 0) return { kind: 'pending', before, pending };
  const snapshot = await d.pipeline.snapshot(scope.domain);
  const counts = await d.source.counts(scope);
  const bucketed = level !== undefined && before.aggregates > d.settings.directCompareMax;
  const buckets = bucketed ? combineBuckets(await d.source.buckets(scope, level!, d.settings.bucketCount)) : undefined;
  const all = level && !bucketed ? await d.source.states(scope, level, {}) : undefined;
  const after = await d.source.revision(scope);
  if (!sameRevision(before, after)) return { kind: 'changed', before, after };
  return { kind: 'scanned', before, after, snapshot, counts, bucketed, buckets, all };
}
