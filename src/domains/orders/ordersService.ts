// Placing an order: decide (pure), then one statement that inserts only the order row, then the
// injected Publisher publishes the OrderPlaced event by its strategy (kafka-first by default: direct
// attempts after commit, fallback row on failure). The service never knows which strategy runs.
// Authorisation is enforced here, not only at the GraphQL edge: the caller's principal decides whose
// order it is (./placingCustomer.ts), owns the idempotency key, and is recorded as changed_by.
import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import { writerSubject } from '../../auth/writer';
import type { PublicationOutcome, PublicationState, Publisher } from '../../publication/publisher';
import { fixedSchemaVersions, type EventSchemaVersions } from '../../publication/schemaVersions';
import type { Clock, IdGenerator } from '../../shared/clock';
import { TidemarkError, toTidemarkError } from '../../shared/errors';
import { decidePlaceOrder } from './decide';
import { orderPlacedEvent, orderPlacedEventId } from './events';
import { insertOrder } from './insertOrder';
import type { Order, OrderLimits, PlaceOrderCommand } from './order';
import { placingCustomer } from './placingCustomer';

/** What the client learns about the event of its order. */
export type PlaceOrderOutcome =
  | 'PUBLISHED_DIRECT' // Kafka acknowledged a direct attempt; no publication row was written
  | 'FALLBACK_STORED' // direct attempts failed or timed out; an event_publications row holds the event for the relay
  | 'FALLBACK_STORE_FAILED' // both failed; the order stands and the reconciler rebuilds the row after the grace period
  | 'OUTBOX_STORED' // the orders domain runs the outbox strategy: the event was committed with the order
  | 'ALREADY_PLACED'; // a retry of an earlier request with the same idempotency key: nothing new was written or sent

export interface PlaceOrderResult {
  order: Order;
  eventId: string;
  outcome: PlaceOrderOutcome;
  /** The publication state now; null on a replay when no publication row exists. */
  publication: PublicationOutcome | null;
  replayed: boolean;
}

export interface OrdersService {
  /** FORBIDDEN for an order of another customer (or a role without order writes); nothing is written then. */
  placeOrder(cmd: PlaceOrderCommand, actor: Principal): Promise<PlaceOrderResult>;
}

export interface OrdersServiceDeps {
  db: Knex;
  publisher: Publisher;
  clock: Clock;
  ids: IdGenerator;
  limits: OrderLimits;
  /** The event schema version to write now (readers first: docs/events.md); version 1 when not given. */
  schemaVersions?: EventSchemaVersions;
  /** Reads the stored publication state of an event (for replies to retried requests). */
  publicationState?: (db: Knex, eventId: string) => Promise<PublicationState | null>;
}

export function outcomeOf(state: PublicationState): PlaceOrderOutcome {
  switch (state) {
    case 'PUBLISHED_DIRECT':
      return 'PUBLISHED_DIRECT';
    case 'FALLBACK_STORE_FAILED':
      return 'FALLBACK_STORE_FAILED';
    case 'NOT_PUBLISHED':
    case 'PUBLISHED':
    case 'DEAD_LETTER':
      return 'FALLBACK_STORED';
    default:
      return 'OUTBOX_STORED';
  }
}

export class IdempotencyConflictError extends TidemarkError {
  constructor() {
    super('IDEMPOTENCY_CONFLICT', 'this idempotency key was already used for a different order', {
      details: { field: 'idempotencyKey' },
      retriable: false,
    });
    this.name = 'IdempotencyConflictError';
  }
}

export function createOrdersService(deps: OrdersServiceDeps): OrdersService {
  const schemaVersions = deps.schemaVersions ?? fixedSchemaVersions();
  return {
    async placeOrder(input, actor) {
      const cmd: PlaceOrderCommand = { ...input, customerId: placingCustomer(input, actor) };
      const changedBy = writerSubject(actor);
      const decision = decidePlaceOrder(cmd, { orderId: deps.ids.uuid(), now: deps.clock.now(), limits: deps.limits, changedBy });
      let committed: { result: { order: Order; replayed: boolean }; publications: PublicationOutcome[] };
      try {
        committed = await deps.publisher.commitSingleWrite<{ order: Order; replayed: boolean }>(deps.db, async (db) => {
          const key = { owner: changedBy, key: cmd.idempotencyKey };
          const r = await insertOrder(db, decision.order, key, decision.requestHash);
          if (r.inserted)
            return { result: { order: r.order, replayed: false }, events: [orderPlacedEvent(r.order, schemaVersions.toWrite('orders'))] };
          if (r.requestHash !== decision.requestHash) throw new IdempotencyConflictError();
          // A retry: the first request owns the publication (direct, fallback row, or the reconciler).
          return { result: { order: r.order, replayed: true }, events: [] };
        });
      } catch (err) {
        throw toTidemarkError(err, 'postgres');
      }
      const { order, replayed } = committed.result;
      const eventId = orderPlacedEventId(order.orderId);
      if (replayed) {
        const state = deps.publicationState ? await deps.publicationState(deps.db, eventId).catch(() => null) : null;
        return { order, eventId, outcome: 'ALREADY_PLACED', publication: state ? { eventId, state } : null, replayed: true };
      }
      const publication = committed.publications.find((p) => p.eventId === eventId) ?? committed.publications[0]!;
      return { order, eventId, outcome: outcomeOf(publication.state), publication, replayed: false };
    },
  };
}
