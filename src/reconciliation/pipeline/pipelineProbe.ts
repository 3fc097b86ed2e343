// Is the projection merely catching up? Answered from the same persisted facts the freshness marker
// uses (src/projections/freshness): publication rows still unsent in the authoritative stores, and
// the projector's applied offsets (ClickHouse checkpoints) against Kafka's log end offsets as they
// were when the scan started (a snapshot). Any instance can ask; nothing here is process-local.
import { reconciledDomain } from '../../domains/reconciledDomains';
import type { PendingPublications } from '../../projections/freshness/pendingPublications';
import type { ProjectionProgressSource } from '../../projections/freshness/projectionProgress';
import type { PendingScope } from '../../publication/pendingScope';
import type { Clock } from '../../shared/clock';
import { StoreUnavailableError } from '../../shared/errors';
import { sleep } from '../../shared/lifecycle';
import { unappliedOf, type PipelineProbe } from '../ports';
import type { Scope } from '../scope';

/** The scope's publications, as its domain part filters them (the field names are its event contract's). */
export function pendingScopeOf(scope: Scope): PendingScope {
  return { domain: scope.domain, ...reconciledDomain(scope.domain).pendingFilter(scope) };
}

export function fromFreshnessSources(d: {
  pending: PendingPublications;
  progress: ProjectionProgressSource;
  clock: Clock;
  pollMs?: number;
}): PipelineProbe {
  return {
    async pending(scope) {
      const r = await d.pending.summarize(pendingScopeOf(scope));
      if (!r.ok) throw new StoreUnavailableError(r.unavailable.join(', '));
      return r.value.pending;
    },
    async pendingIds(scope) {
      const r = await d.pending.pendingAggregates(pendingScopeOf(scope));
      if (!r.ok) throw new StoreUnavailableError(r.unavailable.join(', '));
      return r.value;
    },
    async snapshot(domain) {
      try {
        return { domain, partitions: await d.progress.logOffsets(domain) };
      } catch (err) {
        throw new StoreUnavailableError('kafka', err);
      }
    },
    async behind(snapshot, waitMs, signal) {
      // A source change the scan saw is on Kafka before the snapshot (no publication of the scope was
      // pending when it was taken), so the projector has applied it once its checkpoints reach the
      // snapshot. Only ClickHouse is polled; messages published since are not waited for.
      const deadline = d.clock.now().getTime() + waitMs;
      for (;;) {
        let applied: Map<number, bigint>;
        try {
          applied = await d.progress.appliedOffsets(snapshot.domain);
        } catch (err) {
          throw new StoreUnavailableError('clickhouse', err);
        }
        const behind = unappliedOf(snapshot, applied);
        if (behind === 0 || d.clock.now().getTime() >= deadline || signal?.aborted) return behind;
        await sleep(d.pollMs ?? 100, signal);
      }
    },
    close: () => d.progress.close(),
  };
}
