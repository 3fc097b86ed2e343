// Messages still to apply on a Kafka partition: the log end minus where applying goes on. One rule for
// every reader of projector progress (the freshness marker, the reconciliation probe, the projector's
// own lag gauge), so they never disagree on a partition's lag. Applying goes on from the checkpoint
// (the next offset to apply), or from the log start when there is none or it lies below the log start:
// offsets Kafka deleted are expired, not still to apply (the expiry detector reports them).

/** Where a partition's unapplied messages start: the checkpoint, never below the log start. */
export function appliedFrom(log: { low: bigint }, nextOffset: bigint | undefined): bigint {
  return nextOffset !== undefined && nextOffset > log.low ? nextOffset : log.low;
}

/** How many messages below the log end (`high`) are not applied yet; 0 when caught up. */
export function unappliedMessages(log: { low: bigint; high: bigint }, nextOffset: bigint | undefined): number {
  const from = appliedFrom(log, nextOffset);
  return log.high > from ? Number(log.high - from) : 0;
}
