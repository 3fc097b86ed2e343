// The gateway part of a domain module: its GraphQL surface and the services behind it. A domain
// registered from outside src/ (a deployment's own aggregate, the test suite's notes) brings its
// type-graphql resolver classes; the composition root adds them to the schema and builds the services,
// which its resolvers find at ctx.services.domains[<name>]. The built-in domains' resolvers live under
// src/graphql by audience and are listed there.
import type { Knex } from 'knex';
import type { Clock, IdGenerator } from '../../shared/clock';
import type { PublicationState, Publisher } from '../../publication/publisher';
import type { ReadModelStore } from './readModelStore';
import type { DomainStores } from './reconciliation';

/** A resolver class (type-graphql reads its decorators; the gateway never constructs it itself). */
export type ResolverClass = abstract new (...args: never[]) => object;

/** What a domain's gateway services are built from: its stores, its publisher, time and ids. */
export interface DomainGatewayDeps {
  stores: DomainStores;
  /** The publisher of the domain's configured strategy (outbox or kafka-first). */
  publisher: Publisher;
  /** The state of one already-committed event (answers an idempotent retry with the real state). */
  publicationStateOf(db: Knex, eventId: string): Promise<PublicationState | null>;
  clock: Clock;
  ids: IdGenerator;
  /** Its read queries' port onto the ClickHouse read models (bounded, measured) and their database. */
  reads: { store: ReadModelStore; database: string };
}

export interface DomainGateway {
  resolvers: readonly ResolverClass[];
  /** The services its resolvers use (ctx.services.domains[<name>]). */
  services(deps: DomainGatewayDeps): unknown;
}
