// How far the projector is on each partition a question depends on, from a Kafka log-end read and an
// applied snapshot (pure). `behind` counts the offsets below the log end that no checkpoint covers.
// A checkpoint below the partition's log start means Kafka deleted offsets the projector never
// applied; until the projector records that range (projection_expired_offsets) and moves its
// checkpoint past it, those offsets count as expired and unreconciled here too, so the marker never
// reads the moment between the deletion and its detection as "nothing behind". A partition never
// checkpointed starts at the log start (a projector that never ran has lost nothing it knew of).
import type { PartitionProgress } from './decideFreshness';
import type { AppliedSnapshot } from './appliedSnapshot';
import { appliedFrom, unappliedMessages } from '../offsetLag';

/** One partition's offsets on Kafka: the log start (older messages expired) and the log end. */
export interface LogOffsets {
  partition: number;
  low: bigint;
  high: bigint;
}

export interface ProgressInputs {
  ends: readonly LogOffsets[];
  applied: AppliedSnapshot;
  /** Per partition, the first offset published at or after (asOf - staleAfter); absent: not looked up. */
  stallOffsets: ReadonlyMap<number, bigint>;
}

export function partitionProgress(i: ProgressInputs): PartitionProgress[] {
  return i.ends.map((e) => {
    const cp = i.applied.positions.get(e.partition);
    const from = appliedFrom(e, cp?.nextOffset);
    const behind = unappliedMessages(e, cp?.nextOffset);
    const undetected = cp && cp.nextOffset < e.low ? Number(e.low - cp.nextOffset) : 0;
    return {
      partition: e.partition,
      behind,
      appliedCommitMs: cp && cp.sourceCommitMs > 0 ? cp.sourceCommitMs : null,
      stalled: behind > 0 && from < (i.stallOffsets.get(e.partition) ?? 0n),
      expiredUnreconciled: (i.applied.expired.get(e.partition) ?? 0) + undetected,
    };
  });
}
