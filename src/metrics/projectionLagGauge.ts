// Projection lag as any gateway sees it: computed at scrape time from persisted state (Kafka end
// offsets, projector checkpoints, pending publications) through the freshness service, whose brief
// cache makes the two gauges share one computation per scrape. The projector's own gauges describe
// one consumer; these describe the read model that clients actually query. Metrics sit below the
// projections, so the freshness service is passed in by the shape read here, not imported.
import type { Domain } from '../shared/domain';
import { gauge, type Registry } from './registry';

/** What the gauges read of a domain's freshness (projections/freshness/decideFreshness.ts). */
interface Freshness {
  lagMs: number | null;
  pendingPublications: number;
}

/** The freshness service (projections/freshness/freshnessService.ts), as far as the gauges use it. */
export interface DomainFreshnessSource {
  forScope(scope: { domain: Domain }): Promise<Freshness>;
}

/** `domains`: the registered domains (the registry sits above metrics, so the caller names them). */
export function registerProjectionLagGauge(registry: Registry, freshness: DomainFreshnessSource, domains: readonly Domain[]): void {
  const each = async (set: (domain: string, f: Freshness) => void) => {
    await Promise.all(
      domains.map(async (domain) => {
        const f = await freshness.forScope({ domain }).catch(() => undefined);
        if (f) set(domain, f);
      }),
    );
  };
  // prom-client awaits `collect` before rendering a metric: values are computed per scrape.
  gauge<'domain'>(registry, {
    name: 'tidemark_projection_lag_seconds',
    help: 'How far the ClickHouse read model of a domain is behind its source (pending publications and unapplied Kafka messages), seconds.',
    labelNames: ['domain'],
    async collect() {
      await each((domain, f) => f.lagMs != null && this.set({ domain }, f.lagMs / 1000));
    },
  });
  gauge<'domain'>(registry, {
    name: 'tidemark_projection_pending_publications',
    help: 'Publications of a domain not yet in the read model (unsent, failed, parked or dead-lettered).',
    labelNames: ['domain'],
    async collect() {
      await each((domain, f) => this.set({ domain }, f.pendingPublications));
    },
  });
}
