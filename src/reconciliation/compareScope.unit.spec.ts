// The reconciliation engine on in-memory sides: classification of every kind, normal delay is never
// reported (pending publications, projector behind, young differences, a scope changing during the
// scan), bucketed comparison finds the same discrepancies as record-by-record, counts escalate.
import { bucketOf, canonicalLine, combineBuckets, digestOf, hash64, type BucketDigest } from '../domains/contract/canonical';
import { fieldsOf } from '../domains/canonicalFields';
import { type CompareLevel } from '../domains/contract/canonicalFields';
import { compareScope, type CompareDeps, type CompareSettings } from './compareScope';
import type { RecordState, SourceRevision } from '../domains/contract/sourceState';
import type { TargetState } from './model';
import type { PipelineProbe, TargetReader } from './ports';
import type { SourceReader, StateFilter } from '../domains/contract/sourceReader';
import { campaignScope } from '../domains/fitness/reconciliation/campaignScope';
import { fixedClock } from '../shared/clock';
import type { ErasedAggregates } from '../domains/contract/erasure';
import { compareSnapshot } from './snapshot/compareSnapshot';

interface Rec {
  dataId: number;
  version: number;
  isDeleted?: boolean;
  schoolId?: number;
  commitMs?: number;
}

const NOW = Date.parse('2026-03-02T00:00:00Z');
const OLD = NOW - 3600_000;

function values(r: Rec) {
  return {
    dataId: r.dataId,
    version: r.version,
    isDeleted: r.isDeleted ?? false,
    detectId: 7,
    userId: r.dataId,
    projectId: 3,
    schoolId: r.schoolId ?? 77,
    grade: 5,
    result: '2.31',
    unit: 'm',
    createdAt: OLD - 1000,
    updatedAt: r.commitMs ?? OLD,
  };
}

function stateOf(r: Rec, level: CompareLevel): RecordState {
  const line = canonicalLine(fieldsOf('fitness', level), values(r));
  return {
    id: String(r.dataId),
    version: r.version,
    isDeleted: r.isDeleted ?? false,
    digest: digestOf(line),
    commitMs: r.commitMs ?? OLD,
    line,
  };
}

function pick<T extends { id: string }>(rows: T[], f: StateFilter): T[] {
  return rows.filter((r) => (!f.ids || f.ids.includes(r.id)) && (!f.buckets || f.buckets.ids.includes(bucketOf(r.id, f.buckets.count))));
}

function buckets(states: { id: string; digest: string }[], count: number): BucketDigest[] {
  return [...combineBuckets(states.map((s) => ({ bucket: bucketOf(s.id, count), count: 1, xor: hash64(s.digest) }))).values()];
}

/** A source whose rows can change between calls (to simulate writes during a scan). */
function memorySource(rows: () => Rec[]): SourceReader & { revisions: number } {
  const src = {
    domain: 'fitness' as const,
    revisions: 0,
    async revision(): Promise<SourceRevision> {
      src.revisions++;
      const rs = rows();
      return {
        aggregates: rs.length,
        live: rs.filter((r) => !r.isDeleted).length,
        versionSum: rs.reduce((n, r) => n + r.version, 0),
        maxCommitMs: Math.max(0, ...rs.map((r) => r.commitMs ?? OLD)),
      };
    },
    async counts() {
      return new Map([['3', rows().filter((r) => !r.isDeleted).length]]);
    },
    async buckets(_s: unknown, level: CompareLevel, count: number) {
      return buckets(
        rows().map((r) => stateOf(r, level)),
        count,
      );
    },
    async states(_s: unknown, level: CompareLevel, f: StateFilter) {
      return pick(
        rows().map((r) => stateOf(r, level)),
        f,
      );
    },
    async events() {
      return [];
    },
    async openSnapshot() {
      // The rows as they are now, whatever `rows()` answers later: a snapshot.
      const fixed = rows();
      const inner = memorySource(() => fixed);
      return {
        revision: await inner.revision(campaignScope(7)),
        counts: () => inner.counts(campaignScope(7)),
        buckets: (level: CompareLevel, count: number) => inner.buckets(campaignScope(7), level, count),
        states: (level: CompareLevel, f: StateFilter) => inner.states(campaignScope(7), level, f),
        close: async () => undefined,
      };
    },
  };
  return src;
}

/** A projection: physical rows, possibly several per aggregate (versions, equal-version duplicates). */
function memoryTarget(rows: Rec[]): TargetReader {
  const latest = (level: CompareLevel): TargetState[] => {
    const byId = new Map<number, Rec[]>();
    for (const r of rows) byId.set(r.dataId, [...(byId.get(r.dataId) ?? []), r]);
    return [...byId.values()].map((rs) => {
      const v = Math.max(...rs.map((r) => r.version));
      const top = rs.filter((r) => r.version === v).map((r) => stateOf(r, level));
      const digests = [...new Set(top.map((t) => t.digest))].sort();
      return { ...top[0]!, digest: digests[0]!, digests, lines: [...new Set(top.map((t) => t.line!))] };
    });
  };
  return {
    domain: 'fitness',
    table: 'fitness_results',
    async counts() {
      const live = latest('IDS').filter((s) => !s.isDeleted).length;
      return new Map(live ? [['3', live]] : []);
    },
    async buckets(_s, level, count) {
      return buckets(
        latest(level).flatMap((t) => t.digests.map((digest) => ({ id: t.id, digest }))),
        count,
      );
    },
    async states(_s, level, f) {
      return pick(latest(level), f);
    },
  };
}

const settings: CompareSettings = { maxAttempts: 3, graceMs: 30000, directCompareMax: 1000, bucketCount: 8, catchUpWaitMs: 0 };
const snapshot = async (domain: 'fitness' | 'orders') => ({ domain, partitions: [] });
const calm: PipelineProbe = { pending: async () => 0, pendingIds: async () => new Set<string>(), snapshot, behind: async () => 0 };

function deps(source: SourceReader, target: TargetReader, over: Partial<CompareDeps> = {}): CompareDeps {
  return {
    source,
    target,
    pipeline: calm,
    clock: fixedClock(new Date(NOW)),
    retry: { delayMs: () => 0, giveUp: () => false },
    settings,
    ...over,
  };
}

const scope = campaignScope(7);
const sourceRows: Rec[] = [
  { dataId: 100, version: 1 },
  { dataId: 200, version: 2 },
  { dataId: 300, version: 2, isDeleted: true },
  { dataId: 400, version: 1 },
  { dataId: 500, version: 1 },
];
const targetRows: Rec[] = [
  // 100 missing
  { dataId: 200, version: 1 }, // stale
  { dataId: 300, version: 1 }, // deletion not applied
  { dataId: 400, version: 1 },
  { dataId: 400, version: 1, schoolId: 999 }, // same version, wrong school
  { dataId: 500, version: 1 },
  { dataId: 900, version: 1 }, // no source
];
const expected = {
  '100': 'MISSING',
  '200': 'STALE_VERSION',
  '300': 'DELETION_NOT_APPLIED',
  '400': 'CONTENT_MISMATCH',
  '900': 'UNEXPECTED_ROW',
};

describe('compareScope', () => {
  it('classifies every kind at CONTENT level and names the differing field', async () => {
    const r = await compareScope(
      deps(
        memorySource(() => sourceRows),
        memoryTarget(targetRows),
      ),
      scope,
      'CONTENT',
      true,
    );
    expect(r.outcome).toBe('DISCREPANCIES');
    expect(Object.fromEntries(r.discrepancies.map((d) => [d.aggregateId, d.kind]))).toEqual(expected);
    expect(r.discrepancies.find((d) => d.kind === 'CONTENT_MISMATCH')!.differingFields).toEqual(['schoolId']);
    expect(r.counts).toEqual([{ segment: '3', source: 4, target: 5 }]);
  });

  it('finds the same discrepancies through bucket digests, drilling into mismatching buckets only', async () => {
    const r = await compareScope(
      deps(
        memorySource(() => sourceRows),
        memoryTarget(targetRows),
        { settings: { ...settings, directCompareMax: 2 } },
      ),
      scope,
      'CONTENT',
      true,
    );
    expect(Object.fromEntries(r.discrepancies.map((d) => [d.aggregateId, d.kind]))).toEqual(expected);
    expect(r.bucketsCompared).toBeGreaterThan(0);
    expect(r.bucketsMismatched).toBeLessThanOrEqual(r.bucketsCompared);
    const clean = await compareScope(
      deps(
        memorySource(() => sourceRows),
        memoryTarget(sourceRows),
        { settings: { ...settings, directCompareMax: 2 } },
      ),
      scope,
      'CONTENT',
      true,
    );
    expect(clean).toMatchObject({ outcome: 'CLEAN', bucketsMismatched: 0, discrepancies: [] });
  });

  it('cannot see equal-version field errors at IDS level (that is what CONTENT is for)', async () => {
    const r = await compareScope(
      deps(
        memorySource(() => sourceRows),
        memoryTarget(targetRows),
      ),
      scope,
      'IDS',
      true,
    );
    expect(r.discrepancies.map((d) => d.kind)).not.toContain('CONTENT_MISMATCH');
    expect(r.discrepancies).toHaveLength(4);
  });

  it('COUNTS alone reports differing counts without classifying; with escalation it classifies at IDS', async () => {
    const alone = await compareScope(
      deps(
        memorySource(() => sourceRows),
        memoryTarget(targetRows),
      ),
      scope,
      'COUNTS',
      false,
    );
    expect(alone).toMatchObject({ outcome: 'DISCREPANCIES', levelReached: 'COUNTS', discrepancies: [] });
    const escalated = await compareScope(
      deps(
        memorySource(() => sourceRows),
        memoryTarget(targetRows),
      ),
      scope,
      'COUNTS',
      true,
    );
    expect(escalated.levelReached).toBe('IDS');
    expect(escalated.discrepancies).toHaveLength(4);
  });

  it('treats pending publications and an unapplied topic as catching up, never as discrepancies', async () => {
    const source = memorySource(() => sourceRows);
    const pending = await compareScope(
      deps(source, memoryTarget([]), { pipeline: { ...calm, pending: async () => 2 } }),
      scope,
      'CONTENT',
      true,
    );
    expect(pending).toMatchObject({ outcome: 'CATCHING_UP', discrepancies: [], attempts: 3 });
    const behind = await compareScope(
      deps(source, memoryTarget([]), { pipeline: { ...calm, behind: async () => 5 } }),
      scope,
      'CONTENT',
      true,
    );
    expect(behind).toMatchObject({ outcome: 'CATCHING_UP', discrepancies: [] });
  });

  it('records the topic snapshot after the pending check and before the source scan, and waits for exactly that snapshot', async () => {
    const calls: string[] = [];
    const src = memorySource(() => sourceRows);
    const traced: SourceReader = {
      ...src,
      revision: async (s) => (calls.push('revision'), src.revision(s)),
      counts: async (s) => (calls.push('scan'), src.counts(s)),
    };
    const taken = { domain: 'fitness' as const, partitions: [{ partition: 0, low: 0n, high: 42n }] };
    let waitedFor: unknown;
    const probe: PipelineProbe = {
      pending: async () => (calls.push('pending'), 0),
      pendingIds: async () => new Set<string>(),
      snapshot: async () => (calls.push('snapshot'), taken),
      behind: async (snap) => ((waitedFor = snap), calls.push('behind'), 0),
    };
    const r = await compareScope(deps(traced, memoryTarget(sourceRows), { pipeline: probe }), scope, 'COUNTS', false);
    expect(r.outcome).toBe('CLEAN');
    expect(calls.slice(0, 6)).toEqual(['revision', 'pending', 'snapshot', 'scan', 'revision', 'behind']);
    expect(waitedFor).toBe(taken);
  });

  it('treats differences younger than the grace period as catching up', async () => {
    const young = [{ dataId: 100, version: 1, commitMs: NOW - 1000 }];
    const r = await compareScope(
      deps(
        memorySource(() => young),
        memoryTarget([]),
      ),
      scope,
      'CONTENT',
      true,
    );
    expect(r).toMatchObject({ outcome: 'CATCHING_UP', discrepancies: [], youngIds: ['100'] });
  });

  it('retries while the scope changes during the scan, and compares once it is stable', async () => {
    let calls = 0;
    const moving = memorySource(() => {
      calls++;
      // Every revision read during the first attempt sees a newer version sum.
      return calls <= 2 ? [{ dataId: 100, version: calls }] : [{ dataId: 100, version: 2 }];
    });
    const r = await compareScope(deps(moving, memoryTarget([{ dataId: 100, version: 2 }])), scope, 'IDS', true);
    expect(r).toMatchObject({ outcome: 'CLEAN', attempts: 2 });
    const always = memorySource(() => [{ dataId: 100, version: ++calls }]);
    expect(await compareScope(deps(always, memoryTarget([])), scope, 'IDS', true)).toMatchObject({
      outcome: 'SCOPE_CHANGED',
      discrepancies: [],
    });
  });

  it('collapses identical re-deliveries of one version (harmless duplicates)', async () => {
    const r = await compareScope(
      deps(
        memorySource(() => [{ dataId: 100, version: 2 }]),
        memoryTarget([
          { dataId: 100, version: 2 },
          { dataId: 100, version: 2 },
          { dataId: 100, version: 1 },
        ]),
      ),
      scope,
      'CONTENT',
      true,
    );
    expect(r.outcome).toBe('CLEAN');
  });
});

describe('erased aggregates are expected absent', () => {
  // 100 (only in the source: its erasure has not reached the projection yet), 900 (only in the
  // projection: the source is erased first) and 200 (stale) are erased.
  const erased: ErasedAggregates = { erasedAmong: async (_d, ids) => new Set(ids.filter((id) => ['100', '200', '900'].includes(id))) };

  it.each([
    ['compareScope', compareScope],
    ['compareSnapshot', compareSnapshot],
  ])('%s reports no discrepancy for them and counts them apart', async (_name, compare) => {
    const r = await compare(
      deps(
        memorySource(() => sourceRows),
        memoryTarget(targetRows),
        { erased },
      ),
      scope,
      'CONTENT',
      true,
    );
    expect(Object.fromEntries(r.discrepancies.map((d) => [d.aggregateId, d.kind]))).toEqual({
      '300': 'DELETION_NOT_APPLIED',
      '400': 'CONTENT_MISMATCH',
    });
    expect([...(r.erased ?? [])].sort()).toEqual(['100', '200', '900']);
    expect(r.note).toContain('3 erased aggregate(s) absent as expected');
  });

  it('a scope whose only differences are erased aggregates is CLEAN', async () => {
    const src: Rec[] = [
      { dataId: 100, version: 1 },
      { dataId: 500, version: 1 },
    ];
    const tgt: Rec[] = [
      { dataId: 500, version: 1 },
      { dataId: 900, version: 3 },
    ];
    for (const compare of [compareScope, compareSnapshot]) {
      const r = await compare(
        deps(
          memorySource(() => src),
          memoryTarget(tgt),
          { erased },
        ),
        scope,
        'IDS',
        true,
      );
      expect(r.outcome).toBe('CLEAN');
      expect(r.discrepancies).toEqual([]);
    }
  });

  it('without the port nothing is left out (the default: none erased)', async () => {
    const r = await compareSnapshot(
      deps(
        memorySource(() => sourceRows),
        memoryTarget(targetRows),
      ),
      scope,
      'CONTENT',
      true,
    );
    expect(r.discrepancies).toHaveLength(5);
    expect(r.erased ?? []).toEqual([]);
  });
});
