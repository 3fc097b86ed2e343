// Composition of the fitness write path and the outbox operator view (list, keyset pages, replay of
// PARKED events on every store) for the gateway role. The
// Publisher is injected: the outbox publisher by default (FITNESS_PUBLICATION_STRATEGY=outbox); a
// caller may pass another implementation of the port (e.g. kafka-first) without touching the service.
import type { Registry } from 'prom-client';
import type { Resources } from '../resources';
import type { Publisher } from '../../publication/publisher';
import type { EventSchemaVersions } from '../../publication/schemaVersions';
import { outboxPublication, type DomainPublication } from './publication';
import type { StateChangeSink } from '../../publication/stateChanges/stateChange';
import { outboxMetrics } from '../../publication/outbox/metrics';
import { outboxOperator, type OutboxOperator } from '../../publication/outbox/operator';
import { domainStores } from './domainStores';
import { systemClock } from '../../shared/clock';
import { fitnessService, type FitnessService } from '../../domains/fitness/service';
import { parkedEventPages, type ParkedEventPages } from '../../publication/outbox/operator';

/** The outbox publisher of fitness writes (FITNESS_PUBLICATION_STRATEGY=outbox, the default). */
export function fitnessOutboxPublisher(resources: Pick<Resources, 'topics'>, stateChanges: StateChangeSink): Publisher {
  return outboxPublication(resources, stateChanges).publisher;
}

export function fitnessGatewayServices(o: {
  resources: Resources;
  registry: Registry;
  stateChanges: StateChangeSink;
  publication?: Pick<DomainPublication, 'publisher' | 'states'>;
  /** Which schema version events are written in (the process's gate); default 1. */
  schemaVersions?: EventSchemaVersions;
}): { fitness: FitnessService; outbox: OutboxOperator & ParkedEventPages } {
  const fitness = fitnessService({
    shards: o.resources.mysql,
    publisher: o.publication?.publisher ?? fitnessOutboxPublisher(o.resources, o.stateChanges),
    publicationStates: o.publication?.states,
    ...(o.schemaVersions ? { schemaVersions: o.schemaVersions } : {}),
  });
  const stores = domainStores(o.resources);
  const outbox = {
    ...outboxOperator(stores, { metrics: outboxMetrics(o.registry), stateChanges: o.stateChanges, clock: systemClock }),
    ...parkedEventPages(stores),
  };
  return { fitness, outbox };
}
