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
import { combineBuckets, mismatchedBuckets } from '../domains/contract/canonical';
import { fieldsOf } from '../domains/canonicalFields';
import { type CompareLevel } from '../domains/contract/canonicalFields';
import { classify, isYoung, mergeCounts } from './classify';
import type { RecordState } from '../domains/contract/sourceState';
import type { ReconcileLevel, RunOutcome, RunResult, TargetState } from './model';
import { sameRevision } from '../domains/contract/sourceState';
import type { PipelineProbe, TargetReader } from './ports';
import type { SourceReader, StateFilter } from '../domains/contract/sourceReader';
import type { Scope } from './scope';
import type { Clock } from '../shared/clock';
import type { RetryPolicy } from '../shared/backoff';
import { sleep } from '../shared/lifecycle';

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
}

function byId<T extends { id: string }>(rows: T[]): Map<string, T> {
  const m = new Map<string, T>();
  for (const r of rows) {
    const prev = m.get(r.id) as (T & { version?: number }) | undefined;
    // An aggregate lives in one place; if a source ever had it twice, the higher version is current.
    if (!prev || ((r as T & { version?: number }).version ?? 0) > (prev.version ?? 0)) m.set(r.id, r);
  }
  return m;
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
  const wait = async (attempt: number) => {
    if (attempt < s.maxAttempts) await sleep(d.retry.delayMs(attempt), d.signal);
  };

  for (let attempt = 1; attempt <= s.maxAttempts; attempt++) {
    if (d.signal?.aborted) break;
    const result = (outcome: RunOutcome, note: string, extra: Partial<CompareResult> = {}): CompareResult =>
      countsOnlyResult(outcome, attempt, note, extra);
    const compareLevel: CompareLevel | undefined = level === 'COUNTS' ? undefined : level;

    // 1. Nothing of the scope may still be on its way to Kafka; then the topic's end offsets are
    //    recorded (the snapshot) and the source is scanned, bracketed by revisions. Every change the
    //    scan sees was committed before the second revision read; the revisions being equal, it was
    //    committed before the first, so before the pending check: it was on Kafka, below the snapshot.
    const before = await d.source.revision(scope);
    const pending = await d.pipeline.pending(scope);
    if (pending > 0) {
      last = result('CATCHING_UP', `${pending} publication(s) of the scope are not on Kafka yet`, { revisionBefore: before });
      await wait(attempt);
      continue;
    }
    const snapshot = await d.pipeline.snapshot(scope.domain);
    const sourceCounts = await d.source.counts(scope);
    const bucketed = compareLevel !== undefined && before.aggregates > s.directCompareMax;
    const sourceBuckets = bucketed ? combineBuckets(await d.source.buckets(scope, compareLevel!, s.bucketCount)) : undefined;
    const sourceAll = compareLevel && !bucketed ? await d.source.states(scope, compareLevel, {}) : undefined;
    const after = await d.source.revision(scope);
    if (!sameRevision(before, after)) {
      last = result('SCOPE_CHANGED', 'the scope changed during the source scan', { revisionBefore: before, revisionAfter: after });
      await wait(attempt);
      continue;
    }

    // 2-3. Has the projector applied everything up to the snapshot (partition by partition)?
    const behind = await d.pipeline.behind(snapshot, s.catchUpWaitMs, d.signal);
    if (behind > 0) {
      const note = `the projector had ${behind} message(s) of the ${scope.domain} topic still to apply from before the scan`;
      last = result('CATCHING_UP', note, { revisionBefore: before, revisionAfter: after });
      await wait(attempt);
      continue;
    }

    // 4. Target side.
    await d.beforeTargetScan?.();
    const { counts, equal } = mergeCounts(sourceCounts, await d.target.counts(scope, d.table));
    if (!compareLevel) {
      if (!equal && escalate) {
        level = 'IDS';
        attempt--; // escalation is not a retry
        continue;
      }
      const end = await d.source.revision(scope);
      if (!sameRevision(before, end)) {
        last = result('SCOPE_CHANGED', 'the scope changed during the comparison', { revisionBefore: before, revisionAfter: end, counts });
        await wait(attempt);
        continue;
      }
      return result(
        equal ? 'CLEAN' : 'DISCREPANCIES',
        equal ? 'logical counts agree' : 'logical counts differ; compare at IDS or CONTENT to classify',
        { revisionBefore: before, revisionAfter: end, counts },
      );
    }

    const fields = fieldsOf(scope.domain, compareLevel);
    let filter: StateFilter = {};
    let bucketsCompared = 0;
    let mismatched: number[] = [];
    let source: RecordState[] | undefined = sourceAll;
    let target: TargetState[] = [];
    if (bucketed) {
      const targetBuckets = combineBuckets(await d.target.buckets(scope, compareLevel, s.bucketCount, d.table));
      mismatched = mismatchedBuckets(sourceBuckets!, targetBuckets);
      bucketsCompared = new Set([...sourceBuckets!.keys(), ...targetBuckets.keys()]).size;
      filter = { buckets: { count: s.bucketCount, ids: mismatched } };
      source = mismatched.length ? await d.source.states(scope, compareLevel, filter) : [];
      target = mismatched.length ? await d.target.states(scope, compareLevel, filter, d.table) : [];
    } else target = await d.target.states(scope, compareLevel, {}, d.table);
    let found = classify(byId(source ?? []), byId(target), fields);

    // Name the fields of content mismatches (lines for those few aggregates only; values never leave).
    const contentIds = found.filter((x) => x.kind === 'CONTENT_MISMATCH').map((x) => x.aggregateId);
    if (contentIds.length && compareLevel === 'CONTENT') {
      const lf: StateFilter = { ids: contentIds.slice(0, 1000), withLines: true };
      const [sl, tl] = await Promise.all([d.source.states(scope, compareLevel, lf), d.target.states(scope, compareLevel, lf, d.table)]);
      const detailed = new Map(classify(byId(sl), byId(tl), fields).map((x) => [x.aggregateId, x]));
      found = found.map((x) =>
        x.kind === 'CONTENT_MISMATCH' && detailed.get(x.aggregateId)?.kind === 'CONTENT_MISMATCH'
          ? { ...x, differingFields: detailed.get(x.aggregateId)!.differingFields }
          : x,
      );
    }

    // 5. The source must not have moved while the target was read.
    const end = await d.source.revision(scope);
    const base = {
      levelReached: compareLevel,
      revisionBefore: before,
      revisionAfter: end,
      counts,
      bucketsCompared,
      bucketsMismatched: mismatched.length,
    } as const;
    if (!sameRevision(before, end)) {
      last = result('SCOPE_CHANGED', 'the scope changed during the comparison', base);
      await wait(attempt);
      continue;
    }

    // 6. Young differences are delay, not defects.
    const now = d.clock.now().getTime();
    const young = found.filter((x) => isYoung(x, now, s.graceMs));
    const old = found.filter((x) => !isYoung(x, now, s.graceMs));
    if (young.length && attempt < s.maxAttempts) {
      last = result('CATCHING_UP', `${young.length} difference(s) younger than the grace period`, base);
      await wait(attempt);
      continue;
    }
    const outcome: RunOutcome = old.length ? 'DISCREPANCIES' : young.length ? 'CATCHING_UP' : 'CLEAN';
    const note = old.length
      ? `${old.length} discrepancy(ies)`
      : young.length
        ? `${young.length} difference(s) younger than the grace period`
        : bucketed
          ? `${bucketsCompared} bucket digests agree`
          : 'every aggregate agrees';
    return result(outcome, note, { ...base, discrepancies: old, youngIds: young.map((x) => x.aggregateId) });
  }
  return (
    last ?? {
      levelReached: 'COUNTS',
      outcome: 'CATCHING_UP',
      attempts: 0,
      note: 'stopped before the first attempt',
      revisionBefore: null,
      revisionAfter: null,
      counts: [],
      bucketsCompared: 0,
      bucketsMismatched: 0,
      discrepancies: [],
      youngIds: [],
    }
  );
}
