// Composition of the fitness write path and the outbox operator view for the gateway role. The
// Publisher is injected: the outbox publisher by default (FITNESS_PUBLICATION_STRATEGY=outbox); a
// caller may pass another implementation of the port (e.g. kafka-first) without touching the service.
import type { Registry } from 'prom-client';
import type { Resources } from '../../app/resources';
import type { Publisher } from '../../publication/publisher';
import { outboxPublication, type DomainPublication } from '../../publication/strategy';
import type { StateChangeSink } from '../../publication/stateChanges/stateChange';
import { outboxMetrics } from '../../relay/outbox/metrics';
import { outboxOperator, outboxStoresOf, type OutboxOperator } from '../../relay/outbox/operator';
import { fitnessService, type FitnessService } from './service';

export function fitnessOutboxPublisher(resources: Pick<Resources, 'topics'>): Publisher {
  return outboxPublication(resources).publisher;
}

export function fitnessGatewayServices(o: { resources: Resources; registry: Registry; stateChanges?: StateChangeSink; publication?: Pick<DomainPublication, 'publisher' | 'states'> }): { fitness: FitnessService; outbox: OutboxOperator } {
  const fitness = fitnessService({
    shards: o.resources.mysql,
    publisher: o.publication?.publisher ?? fitnessOutboxPublisher(o.resources),
    publicationStates: o.publication?.states,
    stateChanges: o.stateChanges,
  });
  const outbox = outboxOperator(outboxStoresOf(o.resources.mysql, o.resources.pg), { metrics: outboxMetrics(o.registry), stateChanges: o.stateChanges });
  return { fitness, outbox };
}
