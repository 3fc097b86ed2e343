// The orders services the gateway exposes, composed for the composition root. The Publisher is
// injected; by default it is the kafka-first publisher (ORDERS_PUBLICATION_STRATEGY's default), whose
// producer is closed by `stop()`.
import type { Publisher } from '../../publication/publisher';
import { kafkaFirstMetrics } from '../../publication/kafkaFirst/metrics';
import { kafkaFirstOperations, type KafkaFirstOperations } from '../../publication/kafkaFirst/operations';
import { readPublicationState } from '../../publication/kafkaFirst/readPublicationStates';
import { publicationStores } from '../../publication/kafkaFirst/stores';
import { createKafkaFirstPublisher, type KafkaFirstWiringDeps } from '../../publication/kafkaFirst/wiring';
import { randomIds, systemClock } from '../../shared/clock';
import type { Stoppable } from '../../shared/lifecycle';
import { createOrdersService, type OrdersService } from './ordersService';

export function ordersGatewayServices(d: KafkaFirstWiringDeps & { publisher?: Publisher }): Stoppable & { orders: OrdersService; kafkaFirstPublications: KafkaFirstOperations } {
  const own = d.publisher ? undefined : createKafkaFirstPublisher(d);
  const publisher = d.publisher ?? own!.publisher;
  const orders = createOrdersService({
    db: d.resources.pg,
    publisher,
    clock: systemClock,
    ids: randomIds,
    limits: { maxItems: d.resources.settings.ordersMaxItems },
    publicationState: readPublicationState,
  });
  const kafkaFirstPublications = kafkaFirstOperations({ stores: publicationStores(d.resources), clock: systemClock, metrics: kafkaFirstMetrics(d.registry), stateChanges: d.stateChanges });
  return { orders, kafkaFirstPublications, stop: async () => own?.stop() };
}
