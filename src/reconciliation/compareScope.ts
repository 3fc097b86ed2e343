// One reconciliation of one scope: the authoritative side against a projection table, at a level,
// with the revision check that tells normal delay from incorrect data. Each attempt:
//   1. source revision; publications of the scope still on their way -> CATCHING_UP (the projection
//      cannot hold them yet); a snapshot of the topic's end offsets; source scan (counts; bucket
//      digests or per-aggregate digests); revision again: a change in between -> SCOPE_CHANGED;
//   2-3. wait (bounded) until the projector's checkpoints reach the snapshot -> else CATCHING_UP
//      (messages published after the snapshot are not waited for, so a busy topic does not matter);
//   4. target scan (counts; buckets, then only mismatching buckets drilled into per aggregate);
//   5. source revision a third time: the target was compared with a source that did not move;
//   6. differences involving a change younger than the grace period -> CATCHING_UP while attempts
//      remain; otherwise the differences are discrepancies.
// Levels: COUNTS (latest non-deleted per segment), IDS (id, version, deletion), CONTENT (canonical
// digest). COUNTS escalates to IDS when counts differ and `escalate` is set. No ledger I/O here.
// One attempt is attemptOnce; its longer steps are in compareScope/ (scan, states, verdict).
import type { CompareLevel } from '../domains/contract/canonicalFields';
import { mergeCounts } from './classify';
import { erasedNote } from './erasedFilter';
import type { ReconcileLevel, RunOutcome, RunResult } from './model';
import { sameRevision } from '../domains/contract/sourceState';
import type { PipelineProbe, TargetReader } from './ports';
import type { SourceReader } from '../domains/contract/sourceReader';
import type { Scope } from './scope';
import type { Clock } from '../shared/clock';
import type { RetryPolicy } from '../shared/backoff';
import { sleep } from '../shared/lifecycle';
import { scanSource } from './compareScope/sourceScan';
import { compareStates } from './compareScope/stateComparison';
import { countsVerdict, graceVerdict, type Verdict } from './compareScope/verdict';
import type { ErasedAggregates } from '../domains/contract/erasure';

export interface CompareSettings {
  maxAttempts: number;
  graceMs: number;
  /** Scopes with more aggregates than this compare bucket digests first. */
  directCompareMax: number;
  bucketCount: number;
  catchUpWaitMs: number;
}

export interface CompareDeps {
  source: SourceReader;
  target: TargetReader;
  pipeline: PipelineProbe;
  clock: Clock;
  /** Pause between attempts (only its delay is used). */
  retry: RetryPolicy;
  settings: CompareSettings;
  /** Compare against this table instead of the live projection (a rebuild's shadow). */
  table?: string;
  /** Runs right before each target scan (a rebuild copies late rows into its shadow here). */
  beforeTargetScan?: () => Promise<void>;
  signal?: AbortSignal;
  /**
   * Erased aggregates (the projector's guard): expected absent, never a discrepancy, counted apart.
   * Default: none erased.
   */
  erased?: ErasedAggregates;
}

/** What one comparison found: the run's result fields (without its identity and times). */
export interface CompareResult extends Pick<
  RunResult,
  | 'levelReached'
  | 'outcome'
  | 'attempts'
  | 'note'
  | 'revisionBefore'
  | 'revisionAfter'
  | 'counts'
  | 'bucketsCompared'
  | 'bucketsMismatched'
  | 'discrepancies'
> {
  /** Aggregates that differed but were within the grace period (not reported). */
  youngIds: string[];
  /**
   * Aggregates a snapshot run (snapshot/compareSnapshot.ts) left out: changed after its snapshot, or in
   * flight (their newer version pending or within the grace period). Never stored as discrepancies.
   */
  excluded?: { changedAfterSnapshot: string[]; inFlight: string[] };
  /** Erased aggregates that differed and were left out as expected-absent (erasedFilter.ts). Never stored. */
  erased?: string[];
}

/** A result that reached no further than counts: `extra` fills in what the attempt did get to. */
export function countsOnlyResult(outcome: RunOutcome, attempts: number, note: string, extra: Partial<CompareResult> = {}): CompareResult {
  return {
    levelReached: 'COUNTS',
    outcome,
    attempts,
    note,
    revisionBefore: null,
    revisionAfter: null,
    counts: [],
    bucketsCompared: 0,
    bucketsMismatched: 0,
    discrepancies: [],
    youngIds: [],
    ...extra,
  };
}

export async function compareScope(d: CompareDeps, scope: Scope, requested: ReconcileLevel, escalate: boolean): Promise<CompareResult> {
  const s = d.settings;
  let level = requested;
  let last: CompareResult | undefined;
  for (let attempt = 1; attempt <= s.maxAttempts; attempt++) {
    if (d.signal?.aborted) break;
    const end = await attemptOnce(d, scope, level, escalate, attempt);
    if (end.kind === 'escalate') {
      level = 'IDS';
      attempt--; // escalation is not a retry
      continue;
    }
    if (end.kind === 'final') return end.result;
    last = end.result;
    if (attempt < s.maxAttempts) await sleep(d.retry.delayMs(attempt), d.signal);
  }
  return last ?? countsOnlyResult('CATCHING_UP', 0, 'stopped before the first attempt');
}

/** How an attempt ended: retried after the pause (its result kept as the latest), final, or escalated to IDS. */
type AttemptEnd = { kind: 'retry' | 'final'; result: CompareResult } | { kind: 'escalate' };

async function attemptOnce(d: CompareDeps, scope: Scope, level: ReconcileLevel, escalate: boolean, attempt: number): Promise<AttemptEnd> {
  const retry = (outcome: RunOutcome, note: string, extra: Partial<CompareResult>): AttemptEnd => ({
    kind: 'retry',
    result: countsOnlyResult(outcome, attempt, note, extra),
  });
  const ended = (v: Verdict, extra: Partial<CompareResult>): AttemptEnd => ({
    kind: v.retry ? 'retry' : 'final',
    result: countsOnlyResult(v.outcome, attempt, v.note, { ...extra, ...v.found }),
  });
  const compareLevel: CompareLevel | undefined = level === 'COUNTS' ? undefined : level;

  // 1. Nothing on its way to Kafka, the snapshot, the source scan between two revisions (sourceScan.ts).
  const scan = await scanSource(d, scope, compareLevel);
  if (scan.kind === 'pending')
    return retry('CATCHING_UP', `${scan.pending} publication(s) of the scope are not on Kafka yet`, { revisionBefore: scan.before });
  const { before, after } = scan;
  if (scan.kind === 'changed')
    return retry('SCOPE_CHANGED', 'the scope changed during the source scan', { revisionBefore: before, revisionAfter: after });

  // 2-3. Has the projector applied everything up to the snapshot (partition by partition)?
  const behind = await d.pipeline.behind(scan.snapshot, d.settings.catchUpWaitMs, d.signal);
  if (behind > 0) {
    const note = `the projector had ${behind} message(s) of the ${scope.domain} topic still to apply from before the scan`;
    return retry('CATCHING_UP', note, { revisionBefore: before, revisionAfter: after });
  }

  // 4. Target side.
  await d.beforeTargetScan?.();
  const { counts, equal } = mergeCounts(scan.counts, await d.target.counts(scope, d.table));
  if (!compareLevel) {
    if (!equal && escalate) return { kind: 'escalate' };
    const end = await d.source.revision(scope);
    const extra = { revisionBefore: before, revisionAfter: end, counts };
    if (!sameRevision(before, end)) return retry('SCOPE_CHANGED', 'the scope changed during the comparison', extra);
    return ended(countsVerdict(equal), extra);
  }
  const compared = await compareStates(d, scope, compareLevel, scan);

  // 5. The source must not have moved while the target was read.
  const end = await d.source.revision(scope);
  const base = {
    levelReached: compareLevel,
    revisionBefore: before,
    revisionAfter: end,
    counts,
    bucketsCompared: compared.bucketsCompared,
    bucketsMismatched: compared.mismatched.length,
  } as const;
  if (!sameRevision(before, end)) return retry('SCOPE_CHANGED', 'the scope changed during the comparison', base);
  // 6. What the differences mean; young ones are delay (verdict.ts).
  const { bucketed } = scan;
  const nowMs = d.clock.now().getTime();
  const lastAttempt = attempt >= d.settings.maxAttempts;
  const v = graceVerdict(compared.found, {
    nowMs,
    graceMs: d.settings.graceMs,
    lastAttempt,
    bucketed,
    bucketsCompared: compared.bucketsCompared,
  });
  return ended({ ...v, note: v.note + erasedNote(compared.erased.length) }, { ...base, erased: compared.erased });
}
