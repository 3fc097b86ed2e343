// Composition of erasure (docs/erasure.md): the service the gateway serves (eraseStudent, erasure,
// erasures) and the runner the reconciler role starts. Each erasable domain brings its source store
// (DomainModule.erasure); the stores every domain shares (Kafka, ClickHouse, the reconciliation
// ledger) come from erasureStores.ts.
import { domainModules } from '../../domains/registry';
import type { DomainModule } from '../../domains/contract/domainModule';
import type { DomainErasure } from '../../domains/contract/erasure';
import { erasureKey } from '../../erasure/erasureKey';
import { erasureMetrics } from '../../erasure/metrics';
import { startErasureRunner, type ErasureStores } from '../../erasure/runner';
import { erasureService, type ErasableDomain, type ErasureService } from '../../erasure/service';
import { randomIds, systemClock, type Clock } from '../../shared/clock';
import { ValidationError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { Resources } from '../resources';
import type { RoleStarter } from '../roles';
import { sharedErasureStores } from './erasureStores';

type Erasable = DomainModule & { erasure: DomainErasure };
const erasable = (): Erasable[] => domainModules().filter((m): m is Erasable => m.erasure !== undefined);

function domainsOf(r: Resources, clock: Clock): ErasableDomain[] {
  return erasable().map((m) => ({
    domain: m.name,
    kind: m.erasure.subject,
    mode: m.erasure.mode,
    source: m.erasure.source({ mysql: r.mysql, pg: r.pg }, clock),
  }));
}

/** The gateway's erasure service. */
export function erasureServiceFrom(r: Resources, o: { logger: Logger; clock?: Clock }): ErasureService {
  const s = r.settings;
  const clock = o.clock ?? systemClock;
  return erasureService({
    pg: r.pg,
    domains: domainsOf(r, clock),
    key: erasureKey(s),
    clock,
    ids: randomIds,
    deadlineHours: s.erasureDeadlineHours,
    perMinute: s.erasuresPerMinute,
    logger: o.logger.child({ component: 'erasure' }),
  });
}

/** Each erasable domain's stores: its source first, then the shared ones. */
export function erasureStoresFrom(r: Resources, clock: Clock): (domain: string) => ErasureStores {
  const others = sharedErasureStores(r, clock);
  const byDomain = new Map(domainsOf(r, clock).map((d) => [d.domain, { source: d.source, others }]));
  return (domain) => {
    const stores = byDomain.get(domain);
    if (!stores) throw new ValidationError('domain', 'no erasure for this domain');
    return stores;
  };
}

/** The reconciler role's erasure runner (every reconciler runs one; a lease keeps them off each other's erasures). */
export const startErasureRole: RoleStarter = async ({ resources: r, logger, registry, instanceId }) => {
  const s = r.settings;
  const clock = systemClock;
  const metrics = erasureMetrics(registry, r.pg, clock);
  const runner = startErasureRunner({
    pg: r.pg,
    storesOf: erasureStoresFrom(r, clock),
    clock,
    owner: instanceId,
    retryMs: s.erasureRetryMs,
    leaseMs: s.erasureLeaseMs,
    pollMs: s.erasurePollMs,
    logger: logger.child({ component: 'erasure-runner' }),
    onPass: metrics.onPass,
  });
  return runner;
};
