// Freshness markers for reads. The rule: FRESH only if every version committed before the read began
// is in the answer (or provably outside it). So the inputs are read in order, each after the moment it
// must cover, all before the request reads its data (docs/queries.md, "FRESH means it"):
//   1. pending publications in scope, read after the request began (a version committed earlier is
//      pending there, or Kafka acknowledged it before its row was marked SENT);
//   2. the Kafka log end, read after step 1 completed, so it includes every message step 1 saw as sent;
//   3. the applied snapshot (appliedSnapshot.ts), which may be older than step 2: it then calls less applied.
// Reads are shared between concurrent requests only forward in time (forwardShared.ts). The only cache
// cannot lie: an applied snapshot up to `cacheMs` old is reused while it covers the fresh log end of
// every partition the answer depends on (checkpoints only grow: it then equals a fresh one), and the
// stall lookup (STALE vs CATCHING_UP only) is kept `cacheMs`. Per-aggregate markers depend on the
// aggregate's partition only (aggregatePartition.ts). The caller's membership (PendingScope.dataIn) is
// part of every shared key, so no marker is computed from, or reveals, rows outside the caller's scope.
import type { Registry } from 'prom-client';
import { counter } from '../../metrics/registry';
import { coalescingLoaders, loadAll } from '../../shared/coalescing';
import type { Domain } from '../../publication/event';
import type { Clock } from '../../shared/clock';
import { aggregatePartition } from './aggregatePartition';
import { covers, type AppliedSnapshot } from './appliedSnapshot';
import { deadLettersInScope, deadLettersOfAggregate, type DeadLetterCount } from './deadLetterScope';
import { decideFreshness, type Freshness, type Known, type PendingSummary } from './decideFreshness';
import { ForwardShared, moments, type Started } from './forwardShared';
import { partitionProgress } from './partitionProgress';
import type { PendingPublications } from './pendingPublications';
import type { LogOffsets } from './partitionProgress';
import type { ProjectorStateSource } from './projectionProgress';
import { scopeKey, type DataIn, type PendingScope } from '../../publication/pendingScope';

export interface FreshnessService {
  forScope(scope: PendingScope): Promise<Freshness>;
  /** One marker per id, in order. With `within` (the caller's scope) an id outside it reads as unknown. */
  forAggregates(domain: Domain, ids: readonly string[], within?: DataIn): Promise<Freshness[]>;
  close(): Promise<void>;
}

export interface FreshnessServiceDeps {
  pending: PendingPublications;
  progress: ProjectorStateSource;
  clock: Clock;
  cacheMs: number;
  staleAfterMs: number;
  registry?: Registry;
}

interface ProjectorView {
  atMs: number;
  /** Partitions of the domain's topic (all of them, whatever `ends` kept). */
  partitionCount: number;
  ends: LogOffsets[];
  applied: AppliedSnapshot;
  stallOffsets: Map<number, bigint>;
}

export function createFreshnessService(d: FreshnessServiceDeps): FreshnessService {
  const m = moments();
  const pendingReads = new ForwardShared<Known<PendingSummary>>(m, d.clock);
  const logEnds = new ForwardShared<LogOffsets[]>(m, d.clock);
  const appliedReads = new ForwardShared<AppliedSnapshot>(m, d.clock);
  const lastApplied = new Map<Domain, Started<AppliedSnapshot>>();
  const stalls = new Map<Domain, { atMs: number; value: Promise<Map<number, bigint>> }>();
  const nowMs = () => d.clock.now().getTime();
  const verdicts = d.registry
    ? counter(d.registry, {
        name: 'tidemark_freshness_markers_total',
        help: 'Freshness markers computed, by domain, status and reason.',
        labelNames: ['domain', 'status', 'reason'],
      })
    : undefined;
  // The adapter reports the error itself (ProjectionProgressDeps.onError).
  const unavailable = (store: string): Known<never> => ({ ok: false, unavailable: [store] });

  // Per-id pending rows: one batch per membership, started after every lookup in it was asked.
  const pendingOf = coalescingLoaders<PendingScope, string, Known<PendingSummary>>(scopeKey, async (scope, ids) => {
    const r = await d.pending.byAggregate(scope, [...ids]);
    return ids.map((id) => (r.ok ? { ok: true, value: r.value.get(id) ?? { pending: 0, stuck: 0, oldestAtMs: null } } : r));
  });

  /** Steps 2 and 3 for the partitions `relevant` picks, after the moment `after` (step 1 completed). */
  async function projector(domain: Domain, after: number, relevant: (ends: LogOffsets[]) => LogOffsets[]): Promise<Known<ProjectorView>> {
    let ends: Started<LogOffsets[]>;
    try {
      ends = await logEnds.get(domain, after, () => d.progress.logEnds(domain));
    } catch {
      return unavailable('kafka');
    }
    const mine = relevant(ends.value);
    let applied = lastApplied.get(domain);
    if (!applied || d.cacheMs <= 0 || nowMs() - applied.atMs > d.cacheMs || !covers(applied.value, mine)) {
      try {
        applied = await appliedReads.get(domain, m.now(), () => d.progress.applied(domain));
      } catch {
        return unavailable('clickhouse');
      }
      if ((lastApplied.get(domain)?.startedAt ?? -1) < applied.startedAt) lastApplied.set(domain, applied);
    }
    let stallOffsets = new Map<number, bigint>();
    if (!covers(applied.value, mine)) {
      let s = stalls.get(domain);
      if (!s || d.cacheMs <= 0 || nowMs() - s.atMs > d.cacheMs) {
        const atMs = nowMs();
        s = { atMs, value: d.progress.offsetsAt(domain, atMs - d.staleAfterMs) };
        stalls.set(domain, s);
        s.value.catch(() => stalls.get(domain) === s && stalls.delete(domain));
      }
      try {
        stallOffsets = await s.value;
      } catch {
        return unavailable('kafka');
      }
    }
    return { ok: true, value: { atMs: ends.atMs, partitionCount: ends.value.length, ends: mine, applied: applied.value, stallOffsets } };
  }

  function decide(domain: Domain, atMs: number, pending: Known<PendingSummary>, view: Known<ProjectorView>, dead?: DeadLetterCount) {
    const f = decideFreshness({
      asOfMs: view.ok ? Math.min(atMs, view.value.atMs) : atMs,
      staleAfterMs: d.staleAfterMs,
      pending,
      progress: view.ok ? { ok: true, value: partitionProgress(view.value) } : view,
      deadLetters: dead,
    });
    verdicts?.inc({ domain, status: f.status, reason: f.reason });
    return f;
  }

  return {
    async forScope(scope) {
      const pending = await pendingReads.get(scopeKey(scope), m.now(), () => d.pending.summarize(scope));
      const view = await projector(scope.domain, m.now(), (ends) => ends);
      const dead = view.ok ? deadLettersInScope(view.value.applied.deadLetters, scope) : undefined;
      return decide(scope.domain, pending.atMs, pending.value, view, dead);
    },
    async forAggregates(domain, ids, within) {
      const atMs = nowMs();
      const scope: PendingScope = within ? { domain, dataIn: within } : { domain };
      const pending = await loadAll(pendingOf(scope), ids);
      const partitionOf = (id: string, count: number) => (count > 0 ? aggregatePartition(domain, id, count) : -1);
      const view = await projector(domain, m.now(), (ends) => {
        const wanted = new Set(ids.map((id) => partitionOf(id, ends.length)));
        return ends.filter((e) => wanted.has(e.partition));
      });
      return ids.map((id, i) => {
        if (!view.ok) return decide(domain, atMs, pending[i]!, view);
        const p = partitionOf(id, view.value.partitionCount);
        const own = { ...view.value, ends: view.value.ends.filter((e) => e.partition === p) };
        return decide(
          domain,
          atMs,
          pending[i]!,
          { ok: true, value: own },
          deadLettersOfAggregate(view.value.applied.deadLetters, id, within),
        );
      });
    },
    close: () => d.progress.close(),
  };
}
