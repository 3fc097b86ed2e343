// The freshness rule, as one pure function of persisted facts (so every gateway instance reaches the
// same verdict from the same state). Inputs: the publications still pending in the authoritative
// stores for the query's scope, and the projector's progress per partition of the domain's topic.
//
//   STALE        if the inputs could not be read (STATE_UNKNOWN),
//                or events of the domain expired on Kafka before the projector applied them and no
//                reconciliation of their window has come out CLEAN yet (EVENTS_EXPIRED),
//                or a publication in scope is PARKED / DEAD_LETTER (PARKED_OR_DEAD_LETTERED),
//                or the projector dead-lettered an event in scope, or one it cannot attribute to any
//                scope, and nobody replayed it yet (PROJECTOR_DEAD_LETTERED),
//                or the oldest pending publication in scope is older than staleAfterMs (PENDING_TOO_OLD),
//                or a message published more than staleAfterMs ago is still unapplied (PROJECTOR_STALLED);
//   CATCHING_UP  else if a publication in scope is pending (PENDING_PUBLICATIONS: NEW, PROCESSING,
//                FAILED, NOT_PUBLISHED) or the projector is behind the log end (CONSUMER_LAG);
//   FRESH        otherwise (UP_TO_DATE).
//
// The watermark is the time up to which the projection is known complete: the earliest of now, the
// oldest pending publication in scope, and, for each partition with unapplied messages, the newest
// source commit time applied there (null if such a partition has never been applied). lagMs is
// asOf - watermark. Lag is measured per domain topic (Kafka has no notion of the query's scope), so
// it is conservative for narrow scopes.

export type FreshnessStatus = 'FRESH' | 'CATCHING_UP' | 'STALE';
export type FreshnessReason =
  | 'UP_TO_DATE'
  | 'PENDING_PUBLICATIONS'
  | 'CONSUMER_LAG'
  | 'PARKED_OR_DEAD_LETTERED'
  | 'PENDING_TOO_OLD'
  | 'PROJECTOR_STALLED'
  | 'STATE_UNKNOWN'
  | 'EVENTS_EXPIRED'
  | 'PROJECTOR_DEAD_LETTERED';

/** Publications in scope that are not yet on Kafka, from the authoritative stores. */
export interface PendingSummary {
  /** NEW, PROCESSING, FAILED (outbox) and NOT_PUBLISHED (fallback rows). */
  pending: number;
  /** PARKED (outbox) and DEAD_LETTER (fallback rows): will not publish without an operator. */
  stuck: number;
  /** Creation time of the oldest pending or stuck row, epoch ms. */
  oldestAtMs: number | null;
}

export interface PartitionProgress {
  partition: number;
  /** Messages on Kafka the projector has not applied yet. */
  behind: number;
  /** Newest source commit time applied in this partition (null: never applied). */
  appliedCommitMs: number | null;
  /** True when an unapplied message was published more than staleAfterMs ago. */
  stalled: boolean;
  /** Offsets that expired on Kafka before they were applied, not yet covered by a CLEAN reconciliation. */
  expiredUnreconciled?: number;
}

export type Known<T> = { ok: true; value: T } | { ok: false; unavailable: string[] };

export interface FreshnessInputs {
  asOfMs: number;
  staleAfterMs: number;
  pending: Known<PendingSummary>;
  progress: Known<PartitionProgress[]>;
  /** Unresolved projector dead letters in scope, and those that could be anyone's (deadLetterScope.ts). */
  deadLetters?: { inScope: number; unattributable: number };
}

export interface Freshness {
  status: FreshnessStatus;
  reason: FreshnessReason;
  /** One sentence naming the facts behind the verdict (counts, ages, stores; never payloads). */
  detail: string;
  watermark: Date | null;
  lagMs: number | null;
  pendingPublications: number;
  /** Events behind the log end on the domain's topic. */
  lagMessages: number;
  asOf: Date;
}

const secs = (ms: number) => `${Math.round(ms / 1000)} s`;

export function emptyPending(): PendingSummary {
  return { pending: 0, stuck: 0, oldestAtMs: null };
}

export function mergePending(a: PendingSummary, b: PendingSummary): PendingSummary {
  const oldest = [a.oldestAtMs, b.oldestAtMs].filter((x): x is number => x !== null);
  return { pending: a.pending + b.pending, stuck: a.stuck + b.stuck, oldestAtMs: oldest.length ? Math.min(...oldest) : null };
}

export function decideFreshness(i: FreshnessInputs): Freshness {
  const asOf = new Date(i.asOfMs);
  const pending = i.pending.ok ? i.pending.value : undefined;
  const partitions = i.progress.ok ? i.progress.value : undefined;
  const inScope = pending ? pending.pending + pending.stuck : 0;
  const lagging = (partitions ?? []).filter((p) => p.behind > 0);
  const lagMessages = lagging.reduce((n, p) => n + p.behind, 0);

  let watermarkMs: number | null = i.asOfMs;
  if (!pending || !partitions) watermarkMs = null;
  else {
    if (inScope > 0 && pending.oldestAtMs !== null) watermarkMs = Math.min(watermarkMs, pending.oldestAtMs);
    for (const p of lagging)
      watermarkMs = p.appliedCommitMs === null || watermarkMs === null ? null : Math.min(watermarkMs, p.appliedCommitMs);
  }
  const base = {
    watermark: watermarkMs === null ? null : new Date(watermarkMs),
    lagMs: watermarkMs === null ? null : Math.max(0, i.asOfMs - watermarkMs),
    pendingPublications: inScope,
    lagMessages,
    asOf,
  };
  const verdict = (status: FreshnessStatus, reason: FreshnessReason, detail: string): Freshness => ({ status, reason, detail, ...base });

  if (!pending || !partitions) {
    const missing = [...(i.pending.ok ? [] : i.pending.unavailable), ...(i.progress.ok ? [] : i.progress.unavailable)];
    return verdict('STALE', 'STATE_UNKNOWN', `freshness cannot be established: ${missing.join(', ')} unavailable`);
  }
  const expired = partitions.reduce((n, p) => n + (p.expiredUnreconciled ?? 0), 0);
  if (expired > 0)
    return verdict(
      'STALE',
      'EVENTS_EXPIRED',
      `${expired} event(s) of the domain expired on Kafka before the projector applied them; ` +
        'the reconciliation of their time window has not come out CLEAN yet',
    );
  if (pending.stuck > 0)
    return verdict(
      'STALE',
      'PARKED_OR_DEAD_LETTERED',
      `${pending.stuck} publication(s) in scope are parked or dead-lettered and need an operator`,
    );
  const dead = i.deadLetters ?? { inScope: 0, unattributable: 0 };
  if (dead.inScope + dead.unattributable > 0)
    return verdict(
      'STALE',
      'PROJECTOR_DEAD_LETTERED',
      dead.inScope > 0
        ? `the projector dead-lettered ${dead.inScope} event(s) in scope; they stay unapplied until an operator replays them`
        : 'the projector dead-lettered event(s) it cannot attribute to a scope; every read of the domain is STALE until they are replayed',
    );
  const oldestAge = pending.oldestAtMs === null ? 0 : i.asOfMs - pending.oldestAtMs;
  if (pending.pending > 0 && oldestAge > i.staleAfterMs)
    return verdict(
      'STALE',
      'PENDING_TOO_OLD',
      `the oldest of ${pending.pending} pending publication(s) in scope is ${secs(oldestAge)} old (limit ${secs(i.staleAfterMs)})`,
    );
  const stalled = lagging.filter((p) => p.stalled);
  if (stalled.length)
    return verdict(
      'STALE',
      'PROJECTOR_STALLED',
      `events published more than ${secs(i.staleAfterMs)} ago are not applied yet on ${stalled.length} partition(s)`,
    );
  if (pending.pending > 0)
    return verdict('CATCHING_UP', 'PENDING_PUBLICATIONS', `${pending.pending} publication(s) in scope are not on Kafka yet`);
  if (lagMessages > 0)
    return verdict('CATCHING_UP', 'CONSUMER_LAG', `the projector is ${lagMessages} event(s) behind on ${lagging.length} partition(s)`);
  return verdict('FRESH', 'UP_TO_DATE', 'no publication in scope is pending and the projector has applied every published event');
}
