// The orders services the gateway exposes, composed for the composition root. The publication
// (Publisher + state reader) is injected by the composition root from ORDERS_PUBLICATION_STRATEGY;
// without one, the kafka-first publisher (the default strategy) is created here and closed by `stop()`.
import type { DomainPublication } from './publication';
import type { EventSchemaVersions } from '../../publication/schemaVersions';
import { kafkaFirstMetrics } from '../../publication/kafkaFirst/metrics';
import { kafkaFirstOperations, type KafkaFirstOperations } from '../../publication/kafkaFirst/operations';
import { domainStores } from './domainStores';
import { publicationFor } from './publication';
import type { KafkaFirstWiringDeps } from './kafkaFirst';
import { randomIds, systemClock } from '../../shared/clock';
import type { Stoppable } from '../../shared/lifecycle';
import { createOrdersService, type OrdersService } from '../../domains/orders/ordersService';

export function ordersGatewayServices(
  d: KafkaFirstWiringDeps & { publication?: DomainPublication; schemaVersions?: EventSchemaVersions },
): Stoppable & { orders: OrdersService; kafkaFirstPublications: KafkaFirstOperations } {
  const own = d.publication ? undefined : publicationFor('kafka-first', d);
  const publication = d.publication ?? own!;
  const orders = createOrdersService({
    db: d.resources.pg,
    publisher: publication.publisher,
    clock: systemClock,
    ids: randomIds,
    limits: { maxItems: d.resources.settings.ordersMaxItems },
    publicationState: publication.stateOf,
    ...(d.schemaVersions ? { schemaVersions: d.schemaVersions } : {}),
  });
  const kafkaFirstPublications = kafkaFirstOperations({
    stores: domainStores(d.resources),
    clock: systemClock,
    metrics: kafkaFirstMetrics(d.registry),
    stateChanges: d.stateChanges,
  });
  return { orders, kafkaFirstPublications, stop: async () => own?.stop() };
}
