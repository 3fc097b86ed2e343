// The per-aggregate verdicts of a run on a live scope: at the snapshot's version content is compared;
// ahead of it the source's current state decides between a later change and a version the source never
// had; behind it a pending publication or a young version is in flight, anything else is a defect.
import { fieldsOf } from '../../domains/canonicalFields';
import type { RecordState } from '../../domains/contract/sourceState';
import type { TargetState } from '../model';
import { aheadOfSnapshot, judgeSnapshot } from './judgeSnapshot';

const NOW = Date.parse('2026-03-02T00:00:00Z');
const OLD = NOW - 3600_000;
const YOUNG = NOW - 1000;
const fields = fieldsOf('fitness', 'CONTENT');

const src = (id: string, version: number, o: { digest?: string; commitMs?: number; isDeleted?: boolean } = {}): RecordState => ({
  id,
  version,
  isDeleted: o.isDeleted ?? false,
  digest: o.digest ?? `d${id}v${version}`,
  commitMs: o.commitMs ?? OLD,
});
const tgt = (id: string, version: number, digest = `d${id}v${version}`): TargetState => ({
  ...src(id, version, { digest }),
  digests: [digest],
});
const map = <T extends { id: string }>(...xs: T[]) => new Map(xs.map((x) => [x.id, x]));

function judge(o: { snapshot: RecordState[]; target: TargetState[]; current?: RecordState[]; pending?: string[] }) {
  return judgeSnapshot({
    snapshot: map(...o.snapshot),
    target: map(...o.target),
    current: map(...(o.current ?? [])),
    pending: new Set(o.pending ?? []),
    nowMs: NOW,
    graceMs: 30000,
    fields,
  });
}

describe('judgeSnapshot', () => {
  it('compares by content at the snapshot version and reports equal-version differences whatever their age', () => {
    const v = judge({ snapshot: [src('1', 2), src('2', 3, { commitMs: YOUNG })], target: [tgt('1', 2), tgt('2', 3, 'other')] });
    expect(v.discrepancies.map((d) => [d.aggregateId, d.kind])).toEqual([['2', 'CONTENT_MISMATCH']]);
    expect(v).toMatchObject({ changedAfterSnapshot: [], inFlight: [] });
  });

  it('excludes a projection ahead of the snapshot only when the source now holds that version', () => {
    const snapshot = [src('1', 2), src('2', 2), src('3', 2)];
    const target = [tgt('1', 3), tgt('2', 5), tgt('4', 1), tgt('5', 1)];
    expect(aheadOfSnapshot(map(...snapshot), map(...target))).toEqual(['1', '2', '4', '5']);
    const v = judge({ snapshot, target: [...target, tgt('3', 2)], current: [src('1', 4), src('2', 4), src('4', 1)] });
    // 1: changed twice since; 4: created since; 2: v5 was never committed; 5: no source at all.
    expect(v.changedAfterSnapshot).toEqual(['1', '4']);
    expect(v.discrepancies.map((d) => [d.aggregateId, d.kind, d.sourceVersion])).toEqual([
      ['2', 'UNEXPECTED_ROW', 4],
      ['5', 'UNEXPECTED_ROW', null],
    ]);
  });

  it('takes a projection behind the snapshot as in flight only while pending or young', () => {
    const v = judge({
      snapshot: [src('1', 2), src('2', 2, { commitMs: YOUNG }), src('3', 2), src('4', 1), src('5', 3, { isDeleted: true })],
      target: [tgt('1', 1), tgt('2', 1), tgt('3', 1)],
      pending: ['1', '9'],
    });
    expect(v.inFlight).toEqual(['1', '2']);
    expect(v.discrepancies.map((d) => [d.aggregateId, d.kind])).toEqual([
      ['3', 'STALE_VERSION'],
      ['4', 'MISSING'],
      ['5', 'DELETION_NOT_APPLIED'],
    ]);
  });

  it('excludes nothing on a quiet, correct scope', () => {
    const v = judge({ snapshot: [src('1', 1), src('2', 4, { isDeleted: true })], target: [tgt('1', 1), tgt('2', 4)] });
    expect(v).toEqual({ discrepancies: [], changedAfterSnapshot: [], inFlight: [] });
  });
});
