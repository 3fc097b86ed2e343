// Picks each domain's publication strategy from configuration (FITNESS_PUBLICATION_STRATEGY,
// ORDERS_PUBLICATION_STRATEGY). Both strategies implement the same Publisher port and both work on
// MySQL and PostgreSQL, so a domain service never knows which one it runs on.
import type { Knex } from 'knex';
import type { Resources } from '../resources';
import { systemClock, type Clock } from '../../shared/clock';
import type { Stoppable } from '../../shared/lifecycle';
import type { StateChangeSink } from '../../publication/stateChanges/stateChange';
import { createKafkaFirstPublisher, type KafkaFirstWiringDeps } from './kafkaFirst';
import { readPublicationState, readPublicationStates } from '../../publication/kafkaFirst/readPublicationStates';
import { outboxPublisher } from '../../publication/outbox/outboxPublisher';
import { topicByDomain } from '../../publication/outbox/outboxRow';
import { readOutboxStates } from '../../publication/outbox/readOutboxStates';
import type { PublicationOutcome, PublicationState, Publisher, Strategy } from '../../publication/publisher';

export interface DomainPublication extends Stoppable {
  strategy: Strategy;
  publisher: Publisher;
  /** Current state of already-committed events (answers idempotent retries with the real state). */
  states(db: Knex, eventIds: string[]): Promise<PublicationOutcome[]>;
  /** The state of one event, or null when no row records it (kafka-first: delivered directly, or unknown). */
  stateOf(db: Knex, eventId: string): Promise<PublicationState | null>;
}

/** The outbox strategy needs no connection of its own: it writes on the caller's transaction. */
export function outboxPublication(
  resources: Pick<Resources, 'topics'>,
  stateChanges: StateChangeSink,
  clock: Clock = systemClock,
): DomainPublication {
  // READ COMMITTED: the business row lock carries the version check; no gap locks, so concurrent
  // writers and relay claims on one store never wait on each other's index ranges. No per-transaction
  // SET: it is PostgreSQL's default and every MySQL pooled connection's session level (fromMysql).
  const publisher = outboxPublisher({ topicOf: topicByDomain(resources.topics), stateChanges, clock });
  const stateOf = async (db: Knex, eventId: string) => (await readOutboxStates(db, [eventId]))[0]?.state ?? null;
  return { strategy: 'outbox', publisher, states: readOutboxStates, stateOf, stop: async () => undefined };
}

export function publicationFor(strategy: Strategy, d: KafkaFirstWiringDeps): DomainPublication {
  if (strategy === 'outbox') return outboxPublication(d.resources, d.stateChanges);
  const k = createKafkaFirstPublisher(d);
  const stateOf = async (db: Knex, eventId: string) => (await readPublicationState(db, eventId)) ?? null;
  return { strategy, publisher: k.publisher, states: readPublicationStates, stateOf, stop: () => k.stop() };
}
