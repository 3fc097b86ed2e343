// The gateway services of domains registered from outside src/ (DomainModule.gateway): each gets the
// publisher of its configured strategy and its stores, like a built-in domain, and its resolvers join
// the schema. Built-in domains are composed in starters/gateway.ts with their operator views.
import type { Resources } from '../resources';
import { strategyOf } from '../../domains/contract/domainModule';
import type { ResolverClass } from '../../domains/contract/domainGateway';
import { domainModules } from '../../domains/registry';
import { randomIds, systemClock } from '../../shared/clock';
import type { Stoppable } from '../../shared/lifecycle';
import { publicationFor } from './publication';
import { gatewayReadStore } from './readModels';
import type { KafkaFirstWiringDeps } from './kafkaFirst';

/** Every registered domain's own resolver classes (none for the built-in domains). */
export function domainResolvers(): ResolverClass[] {
  return domainModules().flatMap((m) => m.gateway?.resolvers ?? []);
}

/** Builds each registered domain's gateway services; `stop()` closes the publishers made for them. */
export function domainGatewayServices(
  d: KafkaFirstWiringDeps & { resources: Resources },
): Stoppable & { services: Readonly<Record<string, unknown>> } {
  const publications: Stoppable[] = [];
  const services: Record<string, unknown> = {};
  for (const m of domainModules()) {
    if (!m.gateway) continue;
    const publication = publicationFor(strategyOf(d.resources.settings, m), d);
    publications.push(publication);
    services[m.name] = m.gateway.services({
      stores: { mysql: d.resources.mysql, pg: d.resources.pg },
      publisher: publication.publisher,
      publicationStateOf: publication.stateOf,
      clock: systemClock,
      ids: randomIds,
      reads: { store: gatewayReadStore(d.resources, d.registry), database: d.resources.settings.clickhouseDatabase },
    });
  }
  return { services, stop: async () => void (await Promise.all(publications.map((p) => p.stop()))) };
}
