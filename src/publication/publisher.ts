// The publication port. Both strategies implement it and both work on MySQL and PostgreSQL (knex);
// configuration picks one per domain (FITNESS_PUBLICATION_STRATEGY, ORDERS_PUBLICATION_STRATEGY).
//   outbox:      the events are inserted into the store's outbox table inside the caller's
//                transaction; a relay publishes them later.
//   kafka-first: the transaction writes only the business rows; after commit the events are sent
//                directly (3 attempts, bounded time), with a fallback event_publications row on failure.
import type { Knex } from 'knex';
import type { DomainEvent } from './event';

export type Strategy = 'outbox' | 'kafka-first';

/** Publication states across both strategies (the subscription and operator views use these). */
export type PublicationState =
  // outbox
  | 'NEW'
  | 'PROCESSING'
  | 'SENT'
  | 'FAILED'
  | 'PARKED'
  // kafka-first
  | 'PUBLISHED_DIRECT'
  | 'NOT_PUBLISHED'
  | 'PUBLISHED'
  | 'DEAD_LETTER'
  | 'FALLBACK_STORE_FAILED';

export interface PublicationOutcome {
  eventId: string;
  state: PublicationState;
}

export interface UnitOfWork<T> {
  result: T;
  events: DomainEvent[];
}

export interface Publisher {
  readonly strategy: Strategy;
  /**
   * Runs `work` in one local transaction on `db` and publishes the events it returns according to
   * the strategy. Nothing is published for a transaction that rolls back. Resolves once the business
   * write is committed (and, for kafka-first, once the direct attempts have concluded).
   */
  commit<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<UnitOfWork<T>>): Promise<{ result: T; publications: PublicationOutcome[] }>;
  /**
   * `commit` for work that issues at most one write statement (it may read after it). A single
   * statement is atomic on its own, so a strategy that adds no write of its own (kafka-first) runs
   * the work without BEGIN/COMMIT, saving two round trips; a strategy that adds its event rows
   * (outbox) still wraps both in one transaction. Same guarantees as `commit` either way.
   */
  commitSingleWrite<T>(db: Knex, work: (db: Knex) => Promise<UnitOfWork<T>>): Promise<{ result: T; publications: PublicationOutcome[] }>;
}
