// Where a projector member goes on reading a partition: the read model's own checkpoints decide, not
// the consumer group's committed offsets. A ClickHouse that lost data (emptied, restored from an older
// copy, replaced by a new one on the same Kafka) holds checkpoints behind the group's offsets or none at
// all; reading on from the group's offsets would leave everything in between missing for ever. So the
// member seeks back to what the store holds and re-applies (rows collapse by version, so re-applying is
// harmless). Pure: the resume guard (resumeGuard.ts) does the reading and the seeking.

/** What the guard knows of one partition. */
export interface PartitionResume {
  /** The offset the store holds everything before: its checkpoint as last read, raised by each write. */
  position: bigint;
  /** The first offset of a batch refused after a seek to `position`: met again, it is a real gap. */
  refusedFirst?: bigint;
}

export type BatchDecision =
  | { kind: 'apply' }
  /** Drop the batch and read again from `offset` (the batch starts past what the store holds). */
  | { kind: 'seek'; offset: bigint; refusedFirst: bigint };

/**
 * A batch starting at `first`. At or before the position it is applied (a re-delivery is harmless). Past
 * it, it was fetched before the member sought back (or the group's offset is ahead of the store): seek to
 * the position once. If the very same batch start comes back after that seek, the offsets between are
 * not there to read (transaction markers, compaction, or expired, which the expiry detector records for
 * reconciliation), and the batch is applied.
 */
export function decideBatch(p: PartitionResume, first: bigint): BatchDecision {
  if (first <= p.position) return { kind: 'apply' };
  if (p.refusedFirst === first) return { kind: 'apply' };
  return { kind: 'seek', offset: p.position, refusedFirst: first };
}

export type CheckDecision = { kind: 'keep' } | { kind: 'lost'; offset: bigint };

/**
 * The periodic comparison of what this member wrote with what the store holds now. Checkpoints only
 * grow (readers take their max), so a store behind what was written lost it: seek back to what it holds.
 */
export function decideCheck(p: PartitionResume, stored: bigint | undefined): CheckDecision {
  const held = stored ?? 0n;
  return held < p.position ? { kind: 'lost', offset: held } : { kind: 'keep' };
}
