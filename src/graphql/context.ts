// What every resolver receives. Domain services are attached by the composition root (src/app);
// resolvers never open connections themselves.
import type { ErasureService } from '../erasure/service';
import type { Logger } from '../shared/logger';
import type { Readiness } from '../metrics/opsServer';
import type { Principal } from '../auth/principal';
import type { AuthError } from '../auth/tokens';
import type { PublicationHealthDeps } from '../publication/health/publicationHealth';
import type { StateChangeHub, SubscriberConnection } from '../publication/stateChanges/stateChangeHub';
import type { OrdersService } from '../domains/orders/ordersService';
import type { KafkaFirstOperations } from '../publication/kafkaFirst/operations';
import type { FitnessService } from '../domains/fitness/service';
import type { OutboxOperator } from '../publication/outbox/operator';
import type { ParkedEventPages } from '../publication/outbox/operator';
import type { ReadModels } from '../projections/read/readModels';
import type { ReconciliationService } from '../reconciliation/service';
import type { MigrationState } from '../infra/migrationStatus';
import type { ConsistencyService } from '../projections/consistency/consistentReads';

/** Services the gateway exposes; each domain adds its own field as it lands. */
/** Who is calling, resolved once per request or WebSocket connection. */
export interface Authentication {
  principal?: Principal;
  /** Why the presented credentials were rejected; raised only when a protected field is touched. */
  failure?: AuthError;
}

export interface GatewayServices {
  readiness: () => Promise<Readiness>;
  instanceId: string;
  roles: string[];
  version: string;
  /** Inputs of the operator's publicationHealth view. */
  publicationHealth?: PublicationHealthDeps;
  /** Live publication-state changes (gateway role). */
  stateChanges?: StateChangeHub;
  /** placeOrder (gateway role). */
  orders?: OrdersService;
  /** Operator view and replay of kafka-first event_publications rows. */
  kafkaFirstPublications?: KafkaFirstOperations;
  /** record/correct/delete fitness results (gateway role). */
  fitness?: FitnessService;
  /** Operator view (keyset pages too) and replay of PARKED outbox rows on every store. */
  outbox?: OutboxOperator & ParkedEventPages;
  /** ClickHouse read models and their freshness markers (gateway role). */
  readModels?: ReadModels;
  /** Operator reconciliation, repairs and projection rebuilds (gateway role). */
  reconciliation?: ReconciliationService;
  /** Consistency tokens of mutations, reads that wait for them, writeVisible (gateway role). */
  consistency?: ConsistencyService;
  /** Applied and pending migrations of every database (gateway role). */
  migrationStatus?: () => Promise<MigrationState[]>;
  /** Operator erasure of a person from every store (gateway role). */
  erasure?: ErasureService;
  /** The services of domains registered from outside src/, by domain name (their own resolvers read them). */
  domains?: Readonly<Record<string, unknown>>;
}

export interface GatewayContext {
  requestId: string;
  /** Who is calling (resolved once per request / WebSocket connection). */
  auth: Authentication;
  logger: Logger;
  services: GatewayServices;
  /** The WebSocket connection of a subscription (absent over HTTP). */
  connection?: SubscriberConnection;
}
