// Freshness markers for reads. Cheap by construction: the projector's progress per domain is read at
// most once per `cacheMs` per gateway process (concurrent requests share the in-flight read), the
// pending count of a scope likewise, and per-aggregate questions arrive batched (one query per store
// for all ids of a request, via the request's DataLoader, and for all concurrent requests of the
// same event-loop turn, via a coalescing loader: src/shared/coalescing.ts). A cached marker keeps the
// asOf of the moment its inputs were read, so a client always sees how old the verdict is.
import type { Registry } from 'prom-client';
import { counter } from '../../metrics/registry';
import { coalescingLoader, loadAll } from '../../shared/coalescing';
import type { Domain } from '../../publication/event';
import type { Clock } from '../../shared/clock';
import { decideFreshness, type Freshness, type Known, type PartitionProgress, type PendingSummary } from './decideFreshness';
import type { PendingPublications } from './pendingPublications';
import type { ProjectionProgressSource } from './projectionProgress';
import { scopeKey, type PendingScope } from './sql/pendingScope';

export interface FreshnessService {
  forScope(scope: PendingScope): Promise<Freshness>;
  /** One marker per id, in the order asked (a DataLoader's batch function as it stands). */
  forAggregates(domain: Domain, ids: readonly string[]): Promise<Freshness[]>;
  close(): Promise<void>;
}

interface Timed<T> {
  atMs: number;
  value: T;
}

/** A small TTL cache that also shares in-flight computations. */
class BriefCache<T> {
  private readonly entries = new Map<string, { expires: number; value: Promise<Timed<T>> }>();
  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
    private readonly max = 1000,
  ) {}

  get(key: string, compute: () => Promise<T>): Promise<Timed<T>> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (this.entries.size >= this.max)
      for (const [k, e] of this.entries) if (e.expires <= now || this.entries.size >= this.max) this.entries.delete(k);
    const value = compute().then((v) => ({ atMs: now, value: v }));
    this.entries.set(key, { expires: now + this.ttlMs, value });
    value.catch(() => this.entries.delete(key));
    return value;
  }
}

export interface FreshnessServiceDeps {
  pending: PendingPublications;
  progress: ProjectionProgressSource;
  clock: Clock;
  cacheMs: number;
  staleAfterMs: number;
  registry?: Registry;
}

export function createFreshnessService(d: FreshnessServiceDeps): FreshnessService {
  const progressCache = new BriefCache<Known<PartitionProgress[]>>(d.cacheMs, d.clock);
  const scopeCache = new BriefCache<Known<PendingSummary>>(d.cacheMs, d.clock);
  const verdicts = d.registry
    ? counter(d.registry, {
        name: 'tidemark_freshness_markers_total',
        help: 'Freshness markers computed, by domain, status and reason.',
        labelNames: ['domain', 'status', 'reason'],
      })
    : undefined;

  const pendingOf = (domain: Domain) =>
    coalescingLoader<string, Known<PendingSummary>>(async (ids) => {
      const r = await d.pending.byAggregate(domain, [...ids]);
      return ids.map((id) => (r.ok ? { ok: true, value: r.value.get(id) ?? { pending: 0, stuck: 0, oldestAtMs: null } } : r));
    });
  const pendingByDomain: Record<Domain, ReturnType<typeof pendingOf>> = { fitness: pendingOf('fitness'), orders: pendingOf('orders') };
  const progressOf = (domain: Domain) => progressCache.get(domain, () => d.progress.progress(domain, d.clock.now().getTime()));

  function decide(domain: Domain, pending: Timed<Known<PendingSummary>>, progress: Timed<Known<PartitionProgress[]>>): Freshness {
    const f = decideFreshness({
      asOfMs: Math.min(pending.atMs, progress.atMs),
      staleAfterMs: d.staleAfterMs,
      pending: pending.value,
      progress: progress.value,
    });
    verdicts?.inc({ domain, status: f.status, reason: f.reason });
    return f;
  }

  return {
    async forScope(scope) {
      const [pending, progress] = await Promise.all([
        scopeCache.get(scopeKey(scope), () => d.pending.summarize(scope)),
        progressOf(scope.domain),
      ]);
      return decide(scope.domain, pending, progress);
    },
    async forAggregates(domain, ids) {
      const atMs = d.clock.now().getTime();
      const [pending, progress] = await Promise.all([loadAll(pendingByDomain[domain], ids), progressOf(domain)]);
      return ids.map((_, i) => decide(domain, { atMs, value: pending[i]! }, progress));
    },
    close: () => d.progress.close(),
  };
}
