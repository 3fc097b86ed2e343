// Picks each domain's publication strategy from configuration (FITNESS_PUBLICATION_STRATEGY,
// ORDERS_PUBLICATION_STRATEGY). Both strategies implement the same Publisher port and both work on
// MySQL and PostgreSQL, so a domain service never knows which one it runs on.
import type { Knex } from 'knex';
import type { Resources } from '../app/resources';
import type { Stoppable } from '../shared/lifecycle';
import { createKafkaFirstPublisher, type KafkaFirstWiringDeps } from './kafkaFirst/wiring';
import { readPublicationStates } from './kafkaFirst/readPublicationStates';
import { outboxPublisher } from './outbox/outboxPublisher';
import { topicByDomain } from './outbox/outboxRow';
import { readOutboxStates } from './outbox/readOutboxStates';
import type { PublicationOutcome, Publisher, Strategy } from './publisher';

export interface DomainPublication extends Stoppable {
  strategy: Strategy;
  publisher: Publisher;
  /** Current state of already-committed events (answers idempotent retries with the real state). */
  states(db: Knex, eventIds: string[]): Promise<PublicationOutcome[]>;
}

/** The outbox strategy needs no connection of its own: it writes on the caller's transaction. */
export function outboxPublication(resources: Pick<Resources, 'topics'>): DomainPublication {
  // READ COMMITTED: the business row lock carries the version check; no gap locks, so concurrent
  // writers and relay claims on one store never wait on each other's index ranges.
  const publisher = outboxPublisher({ topicOf: topicByDomain(resources.topics), isolationLevel: 'read committed' });
  return { strategy: 'outbox', publisher, states: readOutboxStates, stop: async () => undefined };
}

export function publicationFor(strategy: Strategy, d: KafkaFirstWiringDeps): DomainPublication {
  if (strategy === 'outbox') return outboxPublication(d.resources);
  const k = createKafkaFirstPublisher(d);
  return { strategy, publisher: k.publisher, states: readPublicationStates, stop: () => k.stop() };
}
