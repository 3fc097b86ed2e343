// A run on a scope edited while it runs, on in-memory sides: the source moves on after the snapshot,
// the projection follows it, and the run still ends CLEAN (counting what it excluded), finds a real
// defect among the edits, and answers CATCHING_UP only when the projector is behind the topic.
import { bucketOf, combineBuckets, digestOf, hash64, type BucketDigest } from '../../domains/contract/canonical';
import type { CompareDeps } from '../compareScope';
import type { RecordState, SourceRevision } from '../../domains/contract/sourceState';
import type { TargetState } from '../model';
import type { PipelineProbe, TargetReader } from '../ports';
import type { SourceReader, StateFilter } from '../../domains/contract/sourceReader';
import { campaignScope } from '../../domains/fitness/reconciliation/campaignScope';
import { fixedClock } from '../../shared/clock';
import { compareSnapshot } from './compareSnapshot';

const NOW = Date.parse('2026-03-02T00:00:00Z');
type Rows = Map<string, { version: number; digest?: string; commitMs?: number }>;

const stateOf = (id: string, r: { version: number; digest?: string; commitMs?: number }): RecordState => ({
  id,
  version: r.version,
  isDeleted: false,
  digest: digestOf(r.digest ?? `${id}:${r.version}`),
  commitMs: r.commitMs ?? NOW - 3600_000,
});
const pick = <T extends { id: string }>(xs: T[], f: StateFilter) =>
  xs.filter((x) => (!f.ids || f.ids.includes(x.id)) && (!f.buckets || f.buckets.ids.includes(bucketOf(x.id, f.buckets.count))));
const bucketsOf = (xs: RecordState[], n: number): BucketDigest[] => [
  ...combineBuckets(xs.map((x) => ({ bucket: bucketOf(x.id, n), count: 1, xor: hash64(x.digest) }))).values(),
];
const revisionOf = (xs: RecordState[]): SourceRevision => ({
  aggregates: xs.length,
  live: xs.length,
  versionSum: xs.reduce((n, x) => n + x.version, 0),
  maxCommitMs: Math.max(0, ...xs.map((x) => x.commitMs)),
});

/** A live source: `rows` is read at every call; a snapshot copies it when opened. */
function liveSource(rows: Rows, calls: string[]): SourceReader {
  const all = (rs: Rows) => [...rs].map(([id, r]) => stateOf(id, r));
  return {
    domain: 'fitness',
    revision: async () => revisionOf(all(rows)),
    counts: async () => new Map([['3', rows.size]]),
    buckets: async (_s, _l, n) => bucketsOf(all(rows), n),
    states: async (_s, _l, f) => pick(all(rows), f),
    events: async () => [],
    async openSnapshot() {
      calls.push('open');
      const fixed = all(new Map(rows));
      return {
        revision: revisionOf(fixed),
        counts: async () => new Map([['3', fixed.length]]),
        buckets: async (_l, n) => bucketsOf(fixed, n),
        states: async (_l, f) => pick(fixed, f),
        close: async () => void calls.push('close'),
      };
    },
  };
}

function target(rows: () => Rows): TargetReader {
  const all = (): TargetState[] => [...rows()].map(([id, r]) => ({ ...stateOf(id, r), digests: [stateOf(id, r).digest] }));
  return {
    domain: 'fitness',
    table: 'fitness_results',
    counts: async () => new Map([['3', rows().size]]),
    buckets: async (_s, _l, n) => bucketsOf(all(), n),
    states: async (_s, _l, f) => pick(all(), f),
  };
}

function deps(source: SourceReader, t: TargetReader, pipeline: PipelineProbe, directCompareMax = 1000): CompareDeps {
  return {
    source,
    target: t,
    pipeline,
    clock: fixedClock(new Date(NOW)),
    retry: { delayMs: () => 0, giveUp: () => false },
    settings: { maxAttempts: 3, graceMs: 30000, directCompareMax, bucketCount: 8, catchUpWaitMs: 0 },
  };
}

const scope = campaignScope(7);
const seed = (): Rows => new Map(Array.from({ length: 40 }, (_, i) => [String(100 + i), { version: 1 }]));

describe('compareSnapshot', () => {
  for (const directCompareMax of [1000, 4])
    it(`ends CLEAN while the scope is edited, counting what it excluded (${directCompareMax === 4 ? 'bucketed' : 'record by record'})`, async () => {
      const source = seed();
      const projected = seed();
      const calls: string[] = [];
      const pipeline: PipelineProbe = {
        pending: async () => 0,
        async pendingIds() {
          calls.push('pending');
          // Edits after the snapshot: 101 corrected and projected, 102 corrected and not yet
          // published (pending), 103 corrected a moment ago (young), 200 created and projected.
          for (const id of ['101', '102', '103']) source.set(id, { version: 2, commitMs: NOW - 500 });
          source.set('200', { version: 1, commitMs: NOW - 500 });
          projected.set('101', { version: 2, commitMs: NOW - 500 });
          projected.set('200', { version: 1, commitMs: NOW - 500 });
          return new Set(['102', '104']);
        },
        snapshot: async (domain) => (calls.push('topic'), { domain, partitions: [] }),
        behind: async () => 0,
      };
      // 104 and 105 were edited just before the snapshot: 104 pending, 105 young; 106 long ago.
      source.set('104', { version: 2, commitMs: NOW - 100_000 });
      source.set('105', { version: 2, commitMs: NOW - 2000 });
      const r = await compareSnapshot(
        deps(
          liveSource(source, calls),
          target(() => projected),
          pipeline,
          directCompareMax,
        ),
        scope,
        'CONTENT',
        true,
      );
      expect(r.discrepancies).toEqual([]);
      expect(r).toMatchObject({ outcome: 'CLEAN', attempts: 1, levelReached: 'CONTENT' });
      expect(r.excluded).toEqual({ changedAfterSnapshot: ['101', '200'], inFlight: ['104', '105'] });
      expect(calls).toEqual(['open', 'pending', 'topic', 'close']);
      expect(r.revisionAfter!.versionSum).toBeGreaterThan(r.revisionBefore!.versionSum);
    });

  it('finds a defect among live edits: a stale row nothing explains and a wrong same-version row', async () => {
    const source = seed();
    const projected = seed();
    source.set('110', { version: 3 });
    projected.set('110', { version: 2 });
    projected.set('111', { version: 1, digest: 'wrong' });
    const pipeline: PipelineProbe = {
      pending: async () => 0,
      pendingIds: async () => (source.set('112', { version: 2, commitMs: NOW }), projected.set('112', { version: 2 }), new Set()),
      snapshot: async (domain) => ({ domain, partitions: [] }),
      behind: async () => 0,
    };
    const r = await compareSnapshot(
      deps(
        liveSource(source, []),
        target(() => projected),
        pipeline,
        4,
      ),
      scope,
      'CONTENT',
      true,
    );
    expect(r.outcome).toBe('DISCREPANCIES');
    expect(r.discrepancies.map((d) => [d.aggregateId, d.kind])).toEqual([
      ['110', 'STALE_VERSION'],
      ['111', 'CONTENT_MISMATCH'],
    ]);
    expect(r.excluded!.changedAfterSnapshot).toEqual(['112']);
  });

  it('answers CATCHING_UP only while the projector is behind the topic snapshot, and closes every snapshot', async () => {
    const calls: string[] = [];
    let behind = 5;
    const pipeline: PipelineProbe = {
      pending: async () => 0,
      pendingIds: async () => new Set(),
      snapshot: async (domain) => ({ domain, partitions: [] }),
      behind: async () => behind,
    };
    const d = deps(liveSource(seed(), calls), target(seed), pipeline);
    expect(await compareSnapshot(d, scope, 'IDS', true)).toMatchObject({ outcome: 'CATCHING_UP', attempts: 3, discrepancies: [] });
    expect(calls.filter((c) => c === 'open')).toHaveLength(3);
    expect(calls.filter((c) => c === 'close')).toHaveLength(3);
    behind = 0;
    expect(await compareSnapshot(d, scope, 'IDS', true)).toMatchObject({ outcome: 'CLEAN', attempts: 1 });
  });
});
