// One reconciliation of a scope that may be edited while it runs (IDS and CONTENT levels). Instead of
// asking the source to stand still (revisions equal before and after the scan, which a busy campaign
// never grants), each attempt judges every aggregate at the version one consistent source snapshot
// holds (snapshot/judgeSnapshot.ts):
//   1. open the snapshot (every shard / PostgreSQL), then read which aggregates still have a
//      publication on its way: a version the snapshot holds and the projection lacks is in flight if
//      its aggregate is among them;
//   2. record the topic's end offsets and wait (bounded) until the projector's checkpoints reach them;
//      every publication not pending in step 1 was on Kafka before this, so it is applied after it.
//      The projector still short of them -> CATCHING_UP (truthful: it is behind), retried;
//   3. compare (bucket digests first on large scopes, then the mismatching buckets record by record;
//      the source side always from the snapshot), read the current source state of the aggregates the
//      projection holds ahead of the snapshot, and judge;
//   4. the run ends CLEAN or DISCREPANCIES, with the aggregates it excluded (changed after the snapshot,
//      in flight) counted; the next run judges them from its own snapshot.
// COUNTS has no per-aggregate view, so it keeps compareScope's revision rule, and escalates here.
// The projection side is read exactly as before (target/sql: ClickHouse 18.16 and current releases,
// single server or cluster layout); only the source side and the verdicts changed. No ledger I/O here.
import { combineBuckets, mismatchedBuckets } from '../../domains/contract/canonical';
import { fieldsOf } from '../../domains/canonicalFields';
import { type CompareLevel } from '../../domains/contract/canonicalFields';
import { mergeCounts } from '../classify';
import { compareScope, countsOnlyResult, type CompareDeps, type CompareResult } from '../compareScope';
import type { RecordState } from '../../domains/contract/sourceState';
import type { ReconcileLevel, TargetState } from '../model';
import type { SourceSnapshot, StateFilter } from '../../domains/contract/sourceReader';
import type { Scope } from '../scope';
import { sleep } from '../../shared/lifecycle';
import { aheadOfSnapshot, judgeSnapshot, type SnapshotVerdicts } from './judgeSnapshot';
import { erasedNote, splitErased } from '../erasedFilter';

function byId<T extends { id: string; version: number }>(rows: T[]): Map<string, T> {
  const m = new Map<string, T>();
  // An aggregate lives in one place; if a source ever had it twice, the higher version is current.
  for (const r of rows) if ((m.get(r.id)?.version ?? -1) < r.version) m.set(r.id, r);
  return m;
}

function noteOf(v: SnapshotVerdicts, bucketed: boolean, bucketsCompared: number): string {
  const excluded = `excluded: ${v.changedAfterSnapshot.length} changed after the snapshot, ${v.inFlight.length} in flight`;
  if (v.discrepancies.length) return `${v.discrepancies.length} discrepancy(ies); ${excluded}`;
  return `${bucketed ? `${bucketsCompared} bucket digests compared` : 'every aggregate compared'} at the snapshot; ${excluded}`;
}

/** One attempt on an open snapshot; a number (messages still to apply) when the projector was behind. */
async function attemptOn(d: CompareDeps, scope: Scope, level: CompareLevel, snap: SourceSnapshot): Promise<CompareResult | number> {
  const s = d.settings;
  const pending = await d.pipeline.pendingIds(scope);
  const topic = await d.pipeline.snapshot(scope.domain);
  const behind = await d.pipeline.behind(topic, s.catchUpWaitMs, d.signal);
  if (behind > 0) return behind;

  await d.beforeTargetScan?.();
  const { counts } = mergeCounts(await snap.counts(), await d.target.counts(scope, d.table));
  const bucketed = snap.revision.aggregates > s.directCompareMax;
  let filter: StateFilter = {};
  let bucketsCompared = 0;
  let mismatched: number[] = [];
  if (bucketed) {
    const sb = combineBuckets(await snap.buckets(level, s.bucketCount));
    const tb = combineBuckets(await d.target.buckets(scope, level, s.bucketCount, d.table));
    mismatched = mismatchedBuckets(sb, tb);
    bucketsCompared = new Set([...sb.keys(), ...tb.keys()]).size;
    filter = { buckets: { count: s.bucketCount, ids: mismatched } };
  }
  const drill = !bucketed || mismatched.length > 0;
  const source = byId(drill ? await snap.states(level, filter) : []);
  const target = byId<TargetState>(drill ? await d.target.states(scope, level, filter, d.table) : []);
  const ahead = aheadOfSnapshot(source, target);
  const current = byId<RecordState>(ahead.length ? await d.source.states(scope, level, { ids: ahead }) : []);
  const fields = fieldsOf(scope.domain, level);
  const judge = (sn: Map<string, RecordState>, t: Map<string, TargetState>) =>
    judgeSnapshot({ snapshot: sn, target: t, current, pending, nowMs: d.clock.now().getTime(), graceMs: s.graceMs, fields });
  const v = judge(source, target);
  // Erased aggregates are expected absent: never a discrepancy (../erasedFilter.ts).
  const erasedOut = await splitErased(d.erased, scope.domain, v.discrepancies, (x) => x.aggregateId);
  v.discrepancies = erasedOut.kept;

  // Name the fields of content mismatches (lines for those few aggregates only; values never leave).
  const contentIds = v.discrepancies.filter((x) => x.kind === 'CONTENT_MISMATCH').map((x) => x.aggregateId);
  if (contentIds.length && level === 'CONTENT') {
    const lf: StateFilter = { ids: contentIds.slice(0, 1000), withLines: true };
    const [sl, tl] = await Promise.all([snap.states(level, lf), d.target.states(scope, level, lf, d.table)]);
    const detailed = new Map(judge(byId(sl), byId(tl)).discrepancies.map((x) => [x.aggregateId, x]));
    v.discrepancies = v.discrepancies.map((x) =>
      x.kind === 'CONTENT_MISMATCH' && detailed.get(x.aggregateId)?.kind === 'CONTENT_MISMATCH'
        ? { ...x, differingFields: detailed.get(x.aggregateId)!.differingFields }
        : x,
    );
  }
  return {
    levelReached: level,
    outcome: v.discrepancies.length ? 'DISCREPANCIES' : 'CLEAN',
    attempts: 1,
    note: noteOf(v, bucketed, bucketsCompared) + erasedNote(erasedOut.erased.length),
    revisionBefore: snap.revision,
    // How far the scope moved during the run (informational: the verdicts do not depend on it).
    revisionAfter: await d.source.revision(scope),
    counts,
    bucketsCompared,
    bucketsMismatched: mismatched.length,
    discrepancies: v.discrepancies,
    youngIds: [],
    excluded: { changedAfterSnapshot: v.changedAfterSnapshot, inFlight: v.inFlight },
    erased: erasedOut.erased,
  };
}

export async function compareSnapshot(d: CompareDeps, scope: Scope, requested: ReconcileLevel, escalate: boolean): Promise<CompareResult> {
  if (requested === 'COUNTS') {
    const counted = await compareScope(d, scope, 'COUNTS', false);
    if (counted.outcome !== 'DISCREPANCIES' || !escalate) return counted;
    const deeper = await compareSnapshot(d, scope, 'IDS', false);
    return { ...deeper, attempts: counted.attempts + deeper.attempts };
  }
  const s = d.settings;
  let last: CompareResult | undefined;
  for (let attempt = 1; attempt <= s.maxAttempts && !d.signal?.aborted; attempt++) {
    const snap = await d.source.openSnapshot(scope);
    let r: CompareResult | number;
    try {
      r = await attemptOn(d, scope, requested, snap);
    } finally {
      await snap.close();
    }
    if (typeof r !== 'number') return { ...r, attempts: attempt };
    last = unfinished(attempt, `the projector had ${r} message(s) of the ${scope.domain} topic still to apply from before the snapshot`);
    last.revisionBefore = snap.revision;
    if (attempt < s.maxAttempts) await sleep(d.retry.delayMs(attempt), d.signal);
  }
  return last ?? unfinished(0, 'stopped before the first attempt');
}

const unfinished = (attempts: number, note: string): CompareResult => countsOnlyResult('CATCHING_UP', attempts, note);
