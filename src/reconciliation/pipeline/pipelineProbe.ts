// Is the projection merely catching up? Answered from the same persisted facts the freshness marker
// uses (src/projections/freshness): publication rows still unsent in the authoritative stores, and
// the projector's applied offsets (ClickHouse checkpoints) against Kafka's log end offsets. Any
// instance can ask; nothing here is process-local.
import type { PendingPublications } from '../../projections/freshness/pendingPublications';
import type { ProjectionProgressSource } from '../../projections/freshness/projectionProgress';
import type { PendingScope } from '../../projections/freshness/sql/pendingScope';
import type { Clock } from '../../shared/clock';
import { StoreUnavailableError } from '../../shared/errors';
import { sleep } from '../../shared/lifecycle';
import type { PipelineProbe } from '../ports';
import type { Scope } from '../scope';

export function pendingScopeOf(scope: Scope): PendingScope {
  if (scope.domain === 'fitness') return { domain: 'fitness', dataEquals: { detectId: scope.detectId, ...(scope.projectId ? { projectId: scope.projectId } : {}) } };
  return { domain: 'orders', createdFrom: scope.from, createdTo: scope.to };
}

export function fromFreshnessSources(d: { pending: PendingPublications; progress: ProjectionProgressSource; clock: Clock; pollMs?: number }): PipelineProbe {
  return {
    async pending(scope) {
      const r = await d.pending.summarize(pendingScopeOf(scope));
      if (!r.ok) throw new StoreUnavailableError(r.unavailable.join(', '));
      return r.value.pending;
    },
    async behind(domain, waitMs, signal) {
      // Every message on the topic now must be applied: a source change the scan saw is on Kafka
      // already (no publication was pending), so it lies before today's log end offsets.
      const deadline = d.clock.now().getTime() + waitMs;
      for (;;) {
        const r = await d.progress.progress(domain, d.clock.now().getTime());
        if (!r.ok) throw new StoreUnavailableError(r.unavailable.join(', '));
        const behind = r.value.reduce((n, p) => n + p.behind, 0);
        if (behind === 0 || d.clock.now().getTime() >= deadline || signal?.aborted) return behind;
        await sleep(d.pollMs ?? 200, signal);
      }
    },
    close: () => d.progress.close(),
  };
}
