/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** A fitness campaign (detectId), optionally one project (test item) of it. */
export type CampaignScopeInput = {
  detectId: number;
  projectId?: number | null | undefined;
};

/** Read your own writes: the read answers once every write the tokens name (or a newer version) is in the read model, or after maxWaitMs with what it has (freshness CATCHING_UP, or STALE when a write cannot arrive; `missing` names them). */
export type ConsistencyInput = {
  /** consistencyToken values of your own mutations (several combine). */
  atLeast: Array<string>;
  /** Longest wait in milliseconds (default CONSISTENCY_WAIT_DEFAULT_MS, 2000; at most CONSISTENCY_WAIT_MAX_MS, 10000). */
  maxWaitMs?: number | null | undefined;
};

export type DiscrepancyFilterInput = {
  aggregateId?: string | null | undefined;
  domain?: EventDomain | null | undefined;
  kinds?: Array<DiscrepancyKind> | null | undefined;
  scopeKey?: string | null | undefined;
  statuses?: Array<DiscrepancyStatus> | null | undefined;
};

export type DiscrepancyKind =
  | 'CONTENT_MISMATCH'
  | 'DELETION_NOT_APPLIED'
  | 'MISSING'
  | 'STALE_VERSION'
  | 'UNEXPECTED_ROW';

export type DiscrepancyStatus =
  | 'OPEN'
  | 'REPAIRING'
  | 'RESOLVED';

/** A scope of another registered domain: its name and the scope as that domain's JSON (checked by it). */
export type DomainScopeInput = {
  domain: string;
  /** The scope as JSON text, e.g. {"notebookId":"..."}; at most 4,096 characters. */
  scope: string;
};

/** Whose data: a student (fitness results) or a customer (orders). */
export type ErasureKind =
  | 'customer'
  | 'student';

/** REQUESTED: recorded, not yet started. ERASING: stores are being erased. VERIFYING: every store is being searched for the person; an erasure whose search found something stays here (and alerts) while that store is erased again. COMPLETED: every store searched clean; the certificate is final. */
export type ErasureStatus =
  | 'COMPLETED'
  | 'ERASING'
  | 'REQUESTED'
  | 'VERIFYING';

/** The domain an event belongs to. */
export type EventDomain =
  | 'fitness'
  | 'orders';

/** State of a kafka-first event_publications row: NOT_PUBLISHED (waiting for the relay), PUBLISHED (relayed), DEAD_LETTER (relay gave up; operator replay). */
export type EventPublicationStatus =
  | 'DEAD_LETTER'
  | 'NOT_PUBLISHED'
  | 'PUBLISHED';

/** How a fitness report groups results. */
export type FitnessReportGroupBy =
  | 'GRADE'
  | 'SCHOOL';

/** All given fields must match each result's latest version (schoolId is its current school: a correction may move it); results outside your scope are never returned. */
export type FitnessResultFilter = {
  detectId?: number | null | undefined;
  grade?: number | null | undefined;
  projectId?: number | null | undefined;
  schoolId?: number | null | undefined;
  userId?: number | null | undefined;
};

/** The rule that produced the freshness status (first matching, in STALE, CATCHING_UP, FRESH order). */
export type FreshnessReason =
  /** CATCHING_UP: the projector has not applied every message on the domain topic yet. */
  | 'CONSUMER_LAG'
  /**
   * STALE: events of the domain expired on Kafka (retention) before the projector applied them;
   * stays until a reconciliation covering their time window is CLEAN.
   */
  | 'EVENTS_EXPIRED'
  /** STALE: a publication in scope is PARKED or DEAD_LETTER and needs an operator. */
  | 'PARKED_OR_DEAD_LETTERED'
  /** CATCHING_UP: publications in scope are NEW, PROCESSING, FAILED or NOT_PUBLISHED. */
  | 'PENDING_PUBLICATIONS'
  /** STALE: the oldest pending publication in scope is older than FRESHNESS_STALE_AFTER_MS. */
  | 'PENDING_TOO_OLD'
  /** STALE: the projector dead-lettered an event in scope (for a consistent read: a write its token names). */
  | 'PROJECTOR_DEAD_LETTERED'
  /** STALE: a message published more than FRESHNESS_STALE_AFTER_MS ago is still unapplied. */
  | 'PROJECTOR_STALLED'
  /** STALE: a store holding freshness inputs could not be read. */
  | 'STATE_UNKNOWN'
  /** FRESH: no pending publication in scope, no consumer lag. */
  | 'UP_TO_DATE';

/** How far a read can be trusted to include every committed change in its scope. */
export type FreshnessStatus =
  /** Publications in scope are pending, or the projector is behind; normal delay. */
  | 'CATCHING_UP'
  /** Nothing in scope is pending and the projector has applied every published event. */
  | 'FRESH'
  /**
   * Something needs attention: parked/dead-lettered events in scope, a pending event older than the threshold,
   * a stalled projector, events that expired unapplied, or state that cannot be read.
   */
  | 'STALE';

/** Why a write named by a consistency token is not in the read model. */
export type MissingVersionReason =
  /** Not applied by the projector within maxWaitMs (normal delay; read again or wait longer). */
  | 'NOT_YET_VISIBLE'
  /** Its publication is parked or dead-lettered: it will not be visible without an operator. */
  | 'PARKED_OR_DEAD_LETTERED'
  /** The projector dead-lettered the event: it will not be visible without an operator. */
  | 'PROJECTOR_DEAD_LETTERED';

/**
 * A publication state, PROJECTION_APPLIED once the read model holds the event,
 * or PROJECTION_DEAD_LETTERED when the projector sent it to the dead-letter topic (not applied until an operator replays it).
 */
export type ObservedPublicationState =
  | 'DEAD_LETTER'
  | 'FAILED'
  | 'FALLBACK_STORE_FAILED'
  | 'NEW'
  | 'NOT_PUBLISHED'
  | 'PARKED'
  | 'PROCESSING'
  | 'PROJECTION_APPLIED'
  | 'PROJECTION_DEAD_LETTERED'
  | 'PUBLISHED'
  | 'PUBLISHED_DIRECT'
  | 'SENT';

/** The sales channel an order came through. */
export type OrderChannel =
  /** A partner or the operators' API. */
  | 'API'
  /** The mobile app. */
  | 'MOBILE'
  /** A point of sale in a store. */
  | 'STORE'
  /** The web shop. */
  | 'WEB';

/** All given fields must match; from/to bound createdAt as [from, to). */
export type OrderFilter = {
  currency?: string | null | undefined;
  customerId?: string | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
};

/** One line of an order. */
export type OrderLineInput = {
  /** A positive whole number, at most 100000. */
  quantity: number;
  /** Up to 64 characters. */
  sku: string;
  /** Price of one unit: not negative, at most 4 decimal places, e.g. "19.90". */
  unitPrice: string;
};

/** DAY groups by UTC day and currency; CURRENCY by currency; CHANNEL by sales channel and currency (UNKNOWN: not said). */
export type OrderReportGroupBy =
  | 'CHANNEL'
  | 'CURRENCY'
  | 'DAY';

/** Orders created in [from, to) (at most 31 days). */
export type OrderWindowInput = {
  from: string;
  to: string;
};

/** Which PARKED outbox events to act on; every field narrows the selection. */
export type ParkedEventFilter = {
  aggregateId?: string | null | undefined;
  /** fitness | orders */
  domain?: string | null | undefined;
  /** Only events whose last error had this code. */
  errorCode?: string | null | undefined;
  /** At most 1000 event ids. */
  eventIds?: Array<string> | null | undefined;
  shard?: number | null | undefined;
  /** mysql (fitness shards) | postgres (orders store) */
  store?: string | null | undefined;
};

/** An order to place. */
export type PlaceOrderInput = {
  /** The sales channel; part of the request: the same idempotency key with another channel is IDEMPOTENCY_CONFLICT. */
  channel?: OrderChannel | null | undefined;
  /** ISO 4217 code in upper case, e.g. "EUR". */
  currency: string;
  /** Up to 64 characters. A customer may omit it (its token customer is used) and may name only itself (FORBIDDEN otherwise); operators and services must give it. */
  customerId?: string | null | undefined;
  /** Chosen by the client (up to 128 characters), unique per caller: retrying with the same key and content returns the first order; another caller using the same key places an order of its own. */
  idempotencyKey: string;
  /** At least one line (ORDERS_MAX_ITEMS at most). */
  items: Array<OrderLineInput>;
};

/** What happened to the OrderPlaced event. PUBLISHED_DIRECT: Kafka acknowledged it, no extra row. FALLBACK_STORED: no acknowledgement within the deadline (failed or unknown); a NOT_PUBLISHED row was stored for the relay. FALLBACK_STORE_FAILED: that write failed too; the order stands and the reconciler rebuilds the row after its grace period. OUTBOX_STORED: the domain runs the outbox strategy. ALREADY_PLACED: a retry with a used idempotency key; nothing new was written or sent. */
export type PlaceOrderOutcome =
  /** This idempotency key placed the order earlier. */
  | 'ALREADY_PLACED'
  /** A NOT_PUBLISHED event_publications row holds the event for the relay. */
  | 'FALLBACK_STORED'
  /** Neither Kafka nor the fallback store took the event; the reconciler will. */
  | 'FALLBACK_STORE_FAILED'
  /** Committed to the outbox with the order (outbox strategy). */
  | 'OUTBOX_STORED'
  /** Kafka acknowledged a direct attempt. */
  | 'PUBLISHED_DIRECT';

export type ProjectionRebuildStatus =
  | 'FAILED'
  | 'RUNNING'
  | 'VERIFIED';

/** Which projector dead letters; every field narrows the selection. */
export type ProjectorDeadLetterFilter = {
  domain?: EventDomain | null | undefined;
  reasons?: Array<ProjectorDeadLetterReason> | null | undefined;
  /** Default: DEAD (the backlog). Replays only ever take DEAD ones. */
  statuses?: Array<ProjectorDeadLetterStatus> | null | undefined;
};

/** Why the projector mapping rejected a message. */
export type ProjectorDeadLetterReason =
  | 'EMPTY_MESSAGE'
  | 'INCONSISTENT_EVENT'
  | 'INVALID_DATA'
  | 'INVALID_ENVELOPE'
  | 'MALFORMED_JSON'
  | 'UNKNOWN_EVENT_TYPE'
  | 'UNSUPPORTED_SCHEMA_VERSION'
  | 'WRONG_TOPIC';

/** PROJECTED: the current mapping accepted it. REJECTED_AGAIN: still dead, with its new reason. */
export type ProjectorDeadLetterReplayOutcome =
  | 'PROJECTED'
  | 'REJECTED_AGAIN';

/** DEAD: not in the read model (the backlog; its scope reads STALE). REPLAYED: a replay projected it. DISCARDED: an operator decided it is not an event to project (kept as the record of that decision). */
export type ProjectorDeadLetterStatus =
  | 'DEAD'
  | 'DISCARDED'
  | 'REPLAYED';

/** Where an event is on its way to Kafka. Outbox: NEW, PROCESSING, SENT (broker acknowledged), FAILED (retry scheduled), PARKED (attempts exhausted; operator replay). Kafka-first: PUBLISHED_DIRECT, NOT_PUBLISHED (fallback row stored), PUBLISHED (by the relay), DEAD_LETTER, FALLBACK_STORE_FAILED. */
export type PublicationState =
  | 'DEAD_LETTER'
  | 'FAILED'
  | 'FALLBACK_STORE_FAILED'
  | 'NEW'
  | 'NOT_PUBLISHED'
  | 'PARKED'
  | 'PROCESSING'
  | 'PUBLISHED'
  | 'PUBLISHED_DIRECT'
  | 'SENT';

/**
 * COUNTS: latest non-deleted records per segment.
 * IDS: ids, versions and deletion state.
 * CONTENT: canonical content digests (finds equal-version field errors).
 */
export type ReconciliationLevel =
  | 'CONTENT'
  | 'COUNTS'
  | 'IDS';

/** CATCHING_UP and SCOPE_CHANGED are normal delay: nothing was recorded as a discrepancy; try again later. */
export type ReconciliationOutcome =
  | 'CATCHING_UP'
  | 'CLEAN'
  | 'DISCREPANCIES'
  | 'FAILED'
  | 'SCOPE_CHANGED';

/** Which reconciliation runs to list; every field narrows the selection. */
export type ReconciliationRunFilterInput = {
  domain?: EventDomain | null | undefined;
  outcomes?: Array<ReconciliationOutcome> | null | undefined;
  scopeKey?: string | null | undefined;
  triggers?: Array<ReconciliationTrigger> | null | undefined;
};

/** Exactly one of campaign (fitness), orderWindow (orders) or domain (any other registered domain). */
export type ReconciliationScopeInput = {
  campaign?: CampaignScopeInput | null | undefined;
  domain?: DomainScopeInput | null | undefined;
  orderWindow?: OrderWindowInput | null | undefined;
};

/** Why a run happened: OPERATOR; SCHEDULE (a scope that changed and completed); ROTATION (the re-verification of an unchanged scope); EXPIRED_EVENTS (a scope whose events expired on Kafka before they were applied); VERIFICATION (of a rebuild). */
export type ReconciliationTrigger =
  | 'EXPIRED_EVENTS'
  | 'OPERATOR'
  | 'REBUILD_VALIDATION'
  | 'ROTATION'
  | 'SCHEDULE'
  | 'VERIFICATION';

/** A new fitness result. */
export type RecordFitnessResultInput = {
  detectId: number;
  grade: number;
  /** Client key (1-128 of A-Z a-z 0-9 . _ : -), unique per caller: a retry by the same caller with the same key returns the first result instead of writing twice; another caller using the same key writes a result of its own. */
  idempotencyKey?: string | null | undefined;
  /** When the test was taken: not more than a minute ahead of the shard clock, not before 1970-01-02 (VALIDATION_FAILED). */
  measuredAt?: string | null | undefined;
  projectId: number;
  /** Non-negative, at most 3 decimals, within the project range for the unit. */
  result: string;
  /** A teacher may record only results of its own schools (FORBIDDEN otherwise). */
  schoolId: number;
  unit: string;
  userId: number;
};

export type RepairAction =
  | 'INVESTIGATE'
  | 'QUARANTINE_SWEEP'
  | 'REBUILD'
  | 'REMOVE_UNEXPECTED'
  | 'REPLAY'
  | 'TOMBSTONE';

export type RepairFilterInput = {
  actions?: Array<RepairAction> | null | undefined;
  discrepancyId?: string | number | null | undefined;
  domain?: EventDomain | null | undefined;
  rebuildId?: string | number | null | undefined;
  verifications?: Array<RepairVerification> | null | undefined;
};

export type RepairOutcome =
  | 'COMPLETED'
  | 'FAILED'
  | 'REFUSED'
  | 'SENT';

export type RepairVerification =
  | 'FAILED'
  | 'NOT_APPLICABLE'
  | 'PASSED'
  | 'PENDING';

/** Which DEAD_LETTER rows to replay. */
export type ReplayDeadLettersInput = {
  domain: EventDomain;
  /** Only these events (all DEAD_LETTER rows of the domain when omitted). */
  eventIds?: Array<string> | null | undefined;
  /** At most this many rows (1-1000), oldest first. */
  limit?: number;
};

export type ErasureFieldsFragment = { id: string, kind: ErasureKind, domain: string, status: ErasureStatus, subjectHash: string, reason: string, requestedBy: string, requestedAt: string, deadlineAt: string, completedAt: string | null, aggregates: number, findings: number, failedAttempts: number, lastError: string | null, stores: Array<{ store: string, done: boolean, affected: number, steps: number, note: string | null }>, certificate: Array<{ store: string, searched: Array<string>, searchedAt: string, found: number, note: string | null }> | null };

export type EraseStudentMutationVariables = Exact<{
  userId: number;
  reason: string;
}>;


export type EraseStudentMutation = { eraseStudent: { id: string, kind: ErasureKind, domain: string, status: ErasureStatus, subjectHash: string, reason: string, requestedBy: string, requestedAt: string, deadlineAt: string, completedAt: string | null, aggregates: number, findings: number, failedAttempts: number, lastError: string | null, stores: Array<{ store: string, done: boolean, affected: number, steps: number, note: string | null }>, certificate: Array<{ store: string, searched: Array<string>, searchedAt: string, found: number, note: string | null }> | null } };

export type EraseCustomerMutationVariables = Exact<{
  customerId: string;
  reason: string;
}>;


export type EraseCustomerMutation = { eraseCustomer: { id: string, kind: ErasureKind, domain: string, status: ErasureStatus, subjectHash: string, reason: string, requestedBy: string, requestedAt: string, deadlineAt: string, completedAt: string | null, aggregates: number, findings: number, failedAttempts: number, lastError: string | null, stores: Array<{ store: string, done: boolean, affected: number, steps: number, note: string | null }>, certificate: Array<{ store: string, searched: Array<string>, searchedAt: string, found: number, note: string | null }> | null } };

export type ErasureQueryVariables = Exact<{
  id: string | number;
}>;


export type ErasureQuery = { erasure: { id: string, kind: ErasureKind, domain: string, status: ErasureStatus, subjectHash: string, reason: string, requestedBy: string, requestedAt: string, deadlineAt: string, completedAt: string | null, aggregates: number, findings: number, failedAttempts: number, lastError: string | null, stores: Array<{ store: string, done: boolean, affected: number, steps: number, note: string | null }>, certificate: Array<{ store: string, searched: Array<string>, searchedAt: string, found: number, note: string | null }> | null } | null };

export type ErasuresQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type ErasuresQuery = { erasures: Array<{ id: string, kind: ErasureKind, domain: string, status: ErasureStatus, subjectHash: string, reason: string, requestedBy: string, requestedAt: string, deadlineAt: string, completedAt: string | null, aggregates: number, findings: number, failedAttempts: number, lastError: string | null, stores: Array<{ store: string, done: boolean, affected: number, steps: number, note: string | null }>, certificate: Array<{ store: string, searched: Array<string>, searchedAt: string, found: number, note: string | null }> | null }> };

export type FaultRecordFitnessMutationVariables = Exact<{
  input: RecordFitnessResultInput;
}>;


export type FaultRecordFitnessMutation = { recordFitnessResult: { replayed: boolean, result: { dataId: string, version: number, result: string, unit: string, isDeleted: boolean, detectId: number, userId: number, projectId: number, schoolId: number, grade: number }, publication: { eventId: string, state: PublicationState } } };

export type FaultCorrectFitnessMutationVariables = Exact<{
  dataId: string | number;
  expectedVersion: number;
  result: string;
  unit: string;
}>;


export type FaultCorrectFitnessMutation = { correctFitnessResult: { result: { dataId: string, version: number, result: string, unit: string, isDeleted: boolean }, publication: { eventId: string, state: PublicationState } } };

export type FaultDeleteFitnessMutationVariables = Exact<{
  dataId: string | number;
  expectedVersion: number;
}>;


export type FaultDeleteFitnessMutation = { deleteFitnessResult: { result: { dataId: string, version: number, result: string, unit: string, isDeleted: boolean }, publication: { eventId: string, state: PublicationState } } };

export type FaultPlaceOrderMutationVariables = Exact<{
  input: PlaceOrderInput;
}>;


export type FaultPlaceOrderMutation = { placeOrder: { eventId: string, outcome: PlaceOrderOutcome, replayed: boolean, order: { orderId: string, customerId: string, currency: string, total: string, itemCount: number, items: Array<{ sku: string, quantity: number, unitPrice: string }> } } };

export type FaultFitnessFreshnessQueryVariables = Exact<{
  detectId: number;
}>;


export type FaultFitnessFreshnessQuery = { fitnessResults: { nodes: Array<{ dataId: string, version: number }>, freshness: { status: FreshnessStatus, reason: FreshnessReason, pendingPublications: number, lagMs: number | null } } };

export type FaultOrdersFreshnessQueryVariables = Exact<{ [key: string]: never; }>;


export type FaultOrdersFreshnessQuery = { orders: { freshness: { status: FreshnessStatus, reason: FreshnessReason, pendingPublications: number, lagMs: number | null } } };

export type FaultReconcileMutationVariables = Exact<{
  scope: ReconciliationScopeInput;
  level: ReconciliationLevel;
}>;


export type FaultReconcileMutation = { reconcile: { run: { outcome: ReconciliationOutcome | null, discrepanciesFound: number, excludedChangedAfterSnapshot: number, excludedInFlight: number, levelReached: ReconciliationLevel | null, note: string | null, errorCode: string | null }, discrepancies: Array<{ kind: DiscrepancyKind, aggregateId: string, sourceVersion: number | null, targetVersion: number | null, differingFields: Array<string> }> } };

export type FitnessPayloadFieldsFragment = { replayed: boolean, publication: { eventId: string, state: PublicationState }, result: { dataId: string, detectId: number, userId: number, projectId: number, schoolId: number, grade: number, result: string, unit: string, version: number, isDeleted: boolean, createdAt: string, updatedAt: string, shard: number } };

export type RecordFitnessResultMutationVariables = Exact<{
  input: RecordFitnessResultInput;
}>;


export type RecordFitnessResultMutation = { recordFitnessResult: { replayed: boolean, publication: { eventId: string, state: PublicationState }, result: { dataId: string, detectId: number, userId: number, projectId: number, schoolId: number, grade: number, result: string, unit: string, version: number, isDeleted: boolean, createdAt: string, updatedAt: string, shard: number } } };

export type CorrectFitnessResultMutationVariables = Exact<{
  dataId: string | number;
  expectedVersion: number;
  result: string;
  unit: string;
}>;


export type CorrectFitnessResultMutation = { correctFitnessResult: { replayed: boolean, publication: { eventId: string, state: PublicationState }, result: { dataId: string, detectId: number, userId: number, projectId: number, schoolId: number, grade: number, result: string, unit: string, version: number, isDeleted: boolean, createdAt: string, updatedAt: string, shard: number } } };

export type DeleteFitnessResultMutationVariables = Exact<{
  dataId: string | number;
  expectedVersion: number;
}>;


export type DeleteFitnessResultMutation = { deleteFitnessResult: { replayed: boolean, publication: { eventId: string, state: PublicationState }, result: { dataId: string, detectId: number, userId: number, projectId: number, schoolId: number, grade: number, result: string, unit: string, version: number, isDeleted: boolean, createdAt: string, updatedAt: string, shard: number } } };

export type ParkedOutboxEventsQueryVariables = Exact<{
  filter?: ParkedEventFilter | null | undefined;
  first?: number | null | undefined;
}>;


export type ParkedOutboxEventsQuery = { parkedOutboxEvents: Array<{ eventId: string, domain: string, aggregateId: string, version: number, store: string, shard: number, attempts: number, lastErrorCode: string | null, lastErrorSummary: string | null, parkedAt: string | null, replayCount: number }> };

export type ReplayParkedEventsMutationVariables = Exact<{
  filter: ParkedEventFilter;
  limit?: number | null | undefined;
}>;


export type ReplayParkedEventsMutation = { replayParkedEvents: { count: number, events: Array<{ eventId: string, version: number, store: string, shard: number }> } };

export type HealthQueryVariables = Exact<{ [key: string]: never; }>;


export type HealthQuery = { health: { ready: boolean, status: string, failing: Array<string>, degraded: Array<string>, instanceId: string, roles: Array<string>, version: string, stores: Array<{ store: string, up: boolean }> } };

export type LiveRebuildsQueryVariables = Exact<{
  domain?: EventDomain | null | undefined;
  first?: number | null | undefined;
}>;


export type LiveRebuildsQuery = { projectionRebuilds: Array<{ id: string, domain: EventDomain, scopeKey: string, status: ProjectionRebuildStatus, phase: string, sourceRows: number, quarantined: number, shadowTable: string, retiredTable: string | null, validation: string | null, startedAt: string, swappedAt: string | null, finishedAt: string | null, errorCode: string | null, errorSummary: string | null }> };

export type LiveOrderQueryVariables = Exact<{
  orderId: string | number;
  consistency?: ConsistencyInput | null | undefined;
}>;


export type LiveOrderQuery = { order: { order: { orderId: string, version: number, total: string } | null, freshness: { status: FreshnessStatus, reason: FreshnessReason } } };

export type DiscrepanciesPageQueryVariables = Exact<{
  filter?: DiscrepancyFilterInput | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type DiscrepanciesPageQuery = { discrepancies: Array<{ id: string, cursor: string, aggregateId: string, kind: DiscrepancyKind }> };

export type RepairsPageQueryVariables = Exact<{
  filter?: RepairFilterInput | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type RepairsPageQuery = { repairs: Array<{ id: string, cursor: string, action: RepairAction, aggregateId: string | null }> };

export type ProjectionRebuildsPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ProjectionRebuildsPageQuery = { projectionRebuilds: Array<{ id: string, cursor: string, status: ProjectionRebuildStatus }> };

export type ReconciliationRunsQueryVariables = Exact<{
  filter?: ReconciliationRunFilterInput | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ReconciliationRunsQuery = { reconciliationRuns: Array<{ id: string, cursor: string, scopeKey: string, trigger: string, outcome: ReconciliationOutcome | null, levelRequested: ReconciliationLevel, levelReached: ReconciliationLevel | null, attempts: number, note: string | null, discrepanciesFound: number, startedAt: string, finishedAt: string | null, counts: Array<{ segment: string, source: number, target: number }> }> };

export type ParkedEventsPageQueryVariables = Exact<{
  filter?: ParkedEventFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ParkedEventsPageQuery = { parkedEvents: Array<{ eventId: string, cursor: string, store: string, shard: number, lastErrorCode: string | null }> };

export type ProjectorDeadLettersQueryVariables = Exact<{
  filter?: ProjectorDeadLetterFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ProjectorDeadLettersQuery = { projectorDeadLetters: Array<{ id: string, cursor: string, domain: EventDomain, topic: string, partition: number, offset: string, reason: ProjectorDeadLetterReason, detail: string, eventId: string | null, aggregateId: string | null, deadLetteredAt: string, status: ProjectorDeadLetterStatus, replays: number, lastReplayedAt: string | null, lastReplayedBy: string | null }> };

export type ReplayProjectorDeadLettersMutationVariables = Exact<{
  ids?: Array<string | number> | string | number | null | undefined;
  filter?: ProjectorDeadLetterFilter | null | undefined;
  limit?: number | null | undefined;
}>;


export type ReplayProjectorDeadLettersMutation = { replayProjectorDeadLetters: { projected: number, rejectedAgain: number, deadLetters: Array<{ id: string, outcome: ProjectorDeadLetterReplayOutcome, reason: ProjectorDeadLetterReason, status: ProjectorDeadLetterStatus, replays: number, lastReplayedBy: string | null }> } };

export type ReconciliationHealthQueryVariables = Exact<{
  domain?: EventDomain | null | undefined;
}>;


export type ReconciliationHealthQuery = { publicationHealth: Array<{ domain: EventDomain, unresolvedDiscrepancies: number | null, oldestVerificationAgeSeconds: number | null, scopesNeverVerified: number | null }> };

export type PublicationHealthQueryVariables = Exact<{
  domain?: EventDomain | null | undefined;
}>;


export type PublicationHealthQuery = { publicationHealth: Array<{ domain: EventDomain, projectionLagMs: number | null, unresolvedDiscrepancies: number | null, repairsAwaitingVerification: number | null, stores: Array<{ store: string, pending: number, failed: number, parked: number, deadLettered: number, expiredClaims: number, oldestUnsentAgeSeconds: number }> }> };

export type PlaceOrderMutationVariables = Exact<{
  input: PlaceOrderInput;
}>;


export type PlaceOrderMutation = { placeOrder: { eventId: string, outcome: PlaceOrderOutcome, replayed: boolean, publication: { eventId: string, state: PublicationState } | null, order: { orderId: string, customerId: string, currency: string, total: string, itemCount: number, createdAt: string, items: Array<{ sku: string, quantity: number, unitPrice: string }> } } };

export type KafkaFirstPublicationsQueryVariables = Exact<{
  domain: EventDomain;
  status?: EventPublicationStatus | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type KafkaFirstPublicationsQuery = { publications: { endCursor: string | null, hasNextPage: boolean, nodes: Array<{ eventId: string, domain: EventDomain, aggregateId: string, version: number, status: EventPublicationStatus, source: string, directAttempts: number, directResult: string | null, relayAttempts: number, replayCount: number, nextAttemptAt: string, claimExpiresAt: string | null, createdAt: string, publishedAt: string | null, lastErrorCode: string | null, lastErrorSummary: string | null }> } };

export type ReplayDeadLettersMutationVariables = Exact<{
  filter: ReplayDeadLettersInput;
}>;


export type ReplayDeadLettersMutation = { replayDeadLetters: { replayedCount: number, eventIds: Array<string> } };

export type PublicationStateChangedSubscriptionVariables = Exact<{
  domain?: EventDomain | null | undefined;
  states?: Array<ObservedPublicationState> | ObservedPublicationState | null | undefined;
  aggregateId?: string | null | undefined;
}>;


export type PublicationStateChangedSubscription = { publicationStateChanged: { eventId: string, domain: EventDomain, aggregateId: string, version: number, from: ObservedPublicationState | null, to: ObservedPublicationState, attempt: number, at: string } };

export type FreshnessFieldsFragment = { status: FreshnessStatus, reason: FreshnessReason, detail: string, watermark: string | null, lagMs: number | null, pendingPublications: number, lagMessages: number, asOf: string };

export type FitnessViewFieldsFragment = { dataId: string, detectId: number, userId: number, projectId: number, schoolId: number, grade: number, result: string, unit: string, version: number, createdAt: string, updatedAt: string, ingestedAt: string, shard: number };

export type FitnessResultByIdQueryVariables = Exact<{
  dataId: string | number;
}>;


export type FitnessResultByIdQuery = { fitnessResult: { dataId: string, result: { dataId: string, detectId: number, userId: number, projectId: number, schoolId: number, grade: number, result: string, unit: string, version: number, createdAt: string, updatedAt: string, ingestedAt: string, shard: number } | null, freshness: { status: FreshnessStatus, reason: FreshnessReason, detail: string, watermark: string | null, lagMs: number | null, pendingPublications: number, lagMessages: number, asOf: string } } };

export type FitnessResultsPageQueryVariables = Exact<{
  filter?: FitnessResultFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type FitnessResultsPageQuery = { fitnessResults: { nodes: Array<{ dataId: string, detectId: number, userId: number, projectId: number, schoolId: number, grade: number, result: string, unit: string, version: number, createdAt: string, updatedAt: string, ingestedAt: string, shard: number }>, pageInfo: { endCursor: string | null, hasNextPage: boolean }, freshness: { status: FreshnessStatus, reason: FreshnessReason, detail: string, watermark: string | null, lagMs: number | null, pendingPublications: number, lagMessages: number, asOf: string } } };

export type FitnessResultsWithStudentsQueryVariables = Exact<{
  filter?: FitnessResultFilter | null | undefined;
  first?: number | null | undefined;
}>;


export type FitnessResultsWithStudentsQuery = { fitnessResults: { nodes: Array<{ dataId: string, userId: number, studentResults: Array<{ dataId: string, result: string }> }>, freshness: { status: FreshnessStatus } } };

export type FitnessReportByQueryVariables = Exact<{
  detectId: number;
  projectId: number;
  groupBy: FitnessReportGroupBy;
}>;


export type FitnessReportByQuery = { fitnessReport: { detectId: number, projectId: number, groupBy: FitnessReportGroupBy, groups: Array<{ key: number, unit: string, count: number, min: string, max: string, average: string, p50: string, p90: string, p99: string }>, freshness: { status: FreshnessStatus, reason: FreshnessReason, detail: string, watermark: string | null, lagMs: number | null, pendingPublications: number, lagMessages: number, asOf: string } } };

export type OrderViewFieldsFragment = { orderId: string, customerId: string, currency: string, total: string, itemCount: number, version: number, createdAt: string, updatedAt: string, ingestedAt: string, items: Array<{ sku: string, quantity: number, unitPrice: string }> };

export type OrderByIdQueryVariables = Exact<{
  orderId: string | number;
}>;


export type OrderByIdQuery = { order: { orderId: string, order: { orderId: string, customerId: string, currency: string, total: string, itemCount: number, version: number, createdAt: string, updatedAt: string, ingestedAt: string, items: Array<{ sku: string, quantity: number, unitPrice: string }> } | null, freshness: { status: FreshnessStatus, reason: FreshnessReason, detail: string, watermark: string | null, lagMs: number | null, pendingPublications: number, lagMessages: number, asOf: string } } };

export type OrdersPageQueryVariables = Exact<{
  filter?: OrderFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type OrdersPageQuery = { orders: { nodes: Array<{ orderId: string, customerId: string, currency: string, total: string, itemCount: number, version: number, createdAt: string, updatedAt: string, ingestedAt: string, items: Array<{ sku: string, quantity: number, unitPrice: string }> }>, pageInfo: { endCursor: string | null, hasNextPage: boolean }, freshness: { status: FreshnessStatus, reason: FreshnessReason, detail: string, watermark: string | null, lagMs: number | null, pendingPublications: number, lagMessages: number, asOf: string } } };

export type OrderReportByQueryVariables = Exact<{
  from: string;
  to: string;
  groupBy: OrderReportGroupBy;
}>;


export type OrderReportByQuery = { orderReport: { groupBy: OrderReportGroupBy, groups: Array<{ key: string, currency: string, orderCount: number, itemCount: number, total: string, averageTotal: string }>, freshness: { status: FreshnessStatus, reason: FreshnessReason, detail: string, watermark: string | null, lagMs: number | null, pendingPublications: number, lagMessages: number, asOf: string } } };

export type MissingFieldsFragment = { domain: EventDomain, aggregateId: string, version: number, reason: MissingVersionReason };

export type RywRecordMutationVariables = Exact<{
  input: RecordFitnessResultInput;
}>;


export type RywRecordMutation = { recordFitnessResult: { replayed: boolean, consistencyToken: string, result: { dataId: string, version: number } } };

export type RywCorrectMutationVariables = Exact<{
  dataId: string | number;
  expectedVersion: number;
  result: string;
}>;


export type RywCorrectMutation = { correctFitnessResult: { consistencyToken: string, result: { dataId: string, version: number } } };

export type RywPlaceOrderMutationVariables = Exact<{
  input: PlaceOrderInput;
}>;


export type RywPlaceOrderMutation = { placeOrder: { replayed: boolean, consistencyToken: string, order: { orderId: string } } };

export type RywReportQueryVariables = Exact<{
  detectId: number;
  projectId: number;
  consistency?: ConsistencyInput | null | undefined;
}>;


export type RywReportQuery = { fitnessReport: { groups: Array<{ key: number, count: number, max: string }>, freshness: { status: FreshnessStatus, reason: FreshnessReason, detail: string, missing: Array<{ domain: EventDomain, aggregateId: string, version: number, reason: MissingVersionReason }> } } };

export type RywLookupQueryVariables = Exact<{
  dataId: string | number;
  consistency?: ConsistencyInput | null | undefined;
}>;


export type RywLookupQuery = { fitnessResult: { result: { version: number, result: string } | null, freshness: { status: FreshnessStatus, reason: FreshnessReason, detail: string, missing: Array<{ domain: EventDomain, aggregateId: string, version: number, reason: MissingVersionReason }> } } };

export type RywOrderQueryVariables = Exact<{
  orderId: string | number;
  consistency?: ConsistencyInput | null | undefined;
}>;


export type RywOrderQuery = { order: { order: { orderId: string } | null, freshness: { status: FreshnessStatus, reason: FreshnessReason, missing: Array<{ domain: EventDomain, aggregateId: string, version: number, reason: MissingVersionReason }> } } };

export type RywWriteVisibleSubscriptionVariables = Exact<{
  token: string;
}>;


export type RywWriteVisibleSubscription = { writeVisible: { visible: boolean, reason: FreshnessReason | null, missing: Array<{ domain: EventDomain, aggregateId: string, version: number, reason: MissingVersionReason }> } };

export type DiscrepancyFieldsFragment = { id: string, aggregateId: string, kind: DiscrepancyKind, status: DiscrepancyStatus, sourceVersion: number | null, targetVersion: number | null, sourceDigest: string | null, targetDigest: string | null, differingFields: Array<string>, resolution: string | null };

export type RepairFieldsFragment = { id: string, discrepancyId: string | null, action: RepairAction, aggregateId: string | null, sourceVersion: number | null, eventId: string | null, rebuildId: string | null, outcome: RepairOutcome, outcomeNote: string | null, verification: RepairVerification, requestedBy: string };

export type ReconcileMutationVariables = Exact<{
  scope: ReconciliationScopeInput;
  level: ReconciliationLevel;
  escalate?: boolean | null | undefined;
}>;


export type ReconcileMutation = { reconcile: { run: { id: string, scopeKey: string, levelReached: ReconciliationLevel | null, outcome: ReconciliationOutcome | null, note: string | null, attempts: number, bucketsCompared: number, bucketsMismatched: number, discrepanciesFound: number, excludedChangedAfterSnapshot: number, excludedInFlight: number, revisionBefore: { aggregates: number, versionSum: number } | null, counts: Array<{ segment: string, source: number, target: number }> }, discrepancies: Array<{ id: string, aggregateId: string, kind: DiscrepancyKind, status: DiscrepancyStatus, sourceVersion: number | null, targetVersion: number | null, sourceDigest: string | null, targetDigest: string | null, differingFields: Array<string>, resolution: string | null }> } };

export type DiscrepanciesQueryVariables = Exact<{
  filter?: DiscrepancyFilterInput | null | undefined;
  first?: number | null | undefined;
}>;


export type DiscrepanciesQuery = { discrepancies: Array<{ id: string, aggregateId: string, kind: DiscrepancyKind, status: DiscrepancyStatus, sourceVersion: number | null, targetVersion: number | null, sourceDigest: string | null, targetDigest: string | null, differingFields: Array<string>, resolution: string | null }> };

export type RepairMutationVariables = Exact<{
  ids: Array<string | number> | string | number;
}>;


export type RepairMutation = { repair: Array<{ id: string, discrepancyId: string | null, action: RepairAction, aggregateId: string | null, sourceVersion: number | null, eventId: string | null, rebuildId: string | null, outcome: RepairOutcome, outcomeNote: string | null, verification: RepairVerification, requestedBy: string }> };

export type RemoveUnexpectedRowsMutationVariables = Exact<{
  ids: Array<string | number> | string | number;
  reason: string;
}>;


export type RemoveUnexpectedRowsMutation = { removeUnexpectedRows: Array<{ id: string, discrepancyId: string | null, action: RepairAction, aggregateId: string | null, sourceVersion: number | null, eventId: string | null, rebuildId: string | null, outcome: RepairOutcome, outcomeNote: string | null, verification: RepairVerification, requestedBy: string }> };

export type RebuildProjectionMutationVariables = Exact<{
  domain: EventDomain;
  scope: ReconciliationScopeInput;
  reason?: string | null | undefined;
}>;


export type RebuildProjectionMutation = { rebuildProjection: { id: string, status: ProjectionRebuildStatus, phase: string, sourceRows: number, quarantined: number, retiredTable: string | null, errorCode: string | null, validation: string | null } };

export type RepairsQueryVariables = Exact<{
  filter?: RepairFilterInput | null | undefined;
  first?: number | null | undefined;
}>;


export type RepairsQuery = { repairs: Array<{ id: string, discrepancyId: string | null, action: RepairAction, aggregateId: string | null, sourceVersion: number | null, eventId: string | null, rebuildId: string | null, outcome: RepairOutcome, outcomeNote: string | null, verification: RepairVerification, requestedBy: string }> };

export type ProjectionRebuildsQueryVariables = Exact<{
  first?: number | null | undefined;
}>;


export type ProjectionRebuildsQuery = { projectionRebuilds: Array<{ id: string, status: ProjectionRebuildStatus, phase: string, quarantined: number }> };

export type EventSchemaHealthQueryVariables = Exact<{
  domain?: EventDomain | null | undefined;
}>;


export type EventSchemaHealthQuery = { publicationHealth: Array<{ domain: EventDomain, eventSchema: { writing: number, newestKnown: number, readersAgree: number | null } | null }> };

export type UpgradeRecordMutationVariables = Exact<{
  input: RecordFitnessResultInput;
}>;


export type UpgradeRecordMutation = { recordFitnessResult: { result: { dataId: string } } };

export type UpgradePlaceOrderMutationVariables = Exact<{
  input: PlaceOrderInput;
}>;


export type UpgradePlaceOrderMutation = { placeOrder: { order: { orderId: string } } };

export type UpgradeReadsQueryVariables = Exact<{
  detectId: number;
  customerId: string;
}>;


export type UpgradeReadsQuery = { fitnessResults: { freshness: { status: FreshnessStatus, reason: FreshnessReason } }, orders: { freshness: { status: FreshnessStatus, reason: FreshnessReason } } };

export type UpgradeResultQueryVariables = Exact<{
  dataId: string | number;
}>;


export type UpgradeResultQuery = { fitnessResult: { result: { measuredAt: string | null, changedBy: string | null } | null } };

export type UpgradeOrderQueryVariables = Exact<{
  orderId: string | number;
}>;


export type UpgradeOrderQuery = { order: { order: { channel: OrderChannel | null, changedBy: string | null } | null } };

export type RecordFitnessResultAuthoredMutationVariables = Exact<{
  input: RecordFitnessResultInput;
}>;


export type RecordFitnessResultAuthoredMutation = { recordFitnessResult: { replayed: boolean, result: { dataId: string, schoolId: number, version: number, changedBy: string | null } } };

export type MoveFitnessResultMutationVariables = Exact<{
  dataId: string | number;
  expectedVersion: number;
  result: string;
  unit: string;
  schoolId?: number | null | undefined;
}>;


export type MoveFitnessResultMutation = { correctFitnessResult: { result: { dataId: string, schoolId: number, version: number, changedBy: string | null } } };

export type PlaceOrderAuthoredMutationVariables = Exact<{
  input: PlaceOrderInput;
}>;


export type PlaceOrderAuthoredMutation = { placeOrder: { replayed: boolean, order: { orderId: string, customerId: string, changedBy: string | null } } };

export const ErasureFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErasureFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Erasure"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"subjectHash"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deadlineAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"aggregates"}},{"kind":"Field","name":{"kind":"Name","value":"findings"}},{"kind":"Field","name":{"kind":"Name","value":"failedAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"stores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"affected"}},{"kind":"Field","name":{"kind":"Name","value":"steps"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}},{"kind":"Field","name":{"kind":"Name","value":"certificate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"searched"}},{"kind":"Field","name":{"kind":"Name","value":"searchedAt"}},{"kind":"Field","name":{"kind":"Name","value":"found"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}}]}}]} as unknown as DocumentNode<ErasureFieldsFragment, unknown>;
export const FitnessPayloadFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FitnessPayloadFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FitnessResultPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"publication"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}},{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"detectId"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"schoolId"}},{"kind":"Field","name":{"kind":"Name","value":"grade"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"isDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"shard"}}]}}]}}]} as unknown as DocumentNode<FitnessPayloadFieldsFragment, unknown>;
export const FreshnessFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FreshnessFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Freshness"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"watermark"}},{"kind":"Field","name":{"kind":"Name","value":"lagMs"}},{"kind":"Field","name":{"kind":"Name","value":"pendingPublications"}},{"kind":"Field","name":{"kind":"Name","value":"lagMessages"}},{"kind":"Field","name":{"kind":"Name","value":"asOf"}}]}}]} as unknown as DocumentNode<FreshnessFieldsFragment, unknown>;
export const FitnessViewFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FitnessViewFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FitnessResultView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"detectId"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"schoolId"}},{"kind":"Field","name":{"kind":"Name","value":"grade"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"ingestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"shard"}}]}}]} as unknown as DocumentNode<FitnessViewFieldsFragment, unknown>;
export const OrderViewFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrderViewFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OrderView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderId"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"itemCount"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"ingestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sku"}},{"kind":"Field","name":{"kind":"Name","value":"quantity"}},{"kind":"Field","name":{"kind":"Name","value":"unitPrice"}}]}}]}}]} as unknown as DocumentNode<OrderViewFieldsFragment, unknown>;
export const MissingFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MissingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MissingVersion"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]} as unknown as DocumentNode<MissingFieldsFragment, unknown>;
export const DiscrepancyFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DiscrepancyFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DiscrepancyView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"sourceVersion"}},{"kind":"Field","name":{"kind":"Name","value":"targetVersion"}},{"kind":"Field","name":{"kind":"Name","value":"sourceDigest"}},{"kind":"Field","name":{"kind":"Name","value":"targetDigest"}},{"kind":"Field","name":{"kind":"Name","value":"differingFields"}},{"kind":"Field","name":{"kind":"Name","value":"resolution"}}]}}]} as unknown as DocumentNode<DiscrepancyFieldsFragment, unknown>;
export const RepairFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RepairFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RepairView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"discrepancyId"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"sourceVersion"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"rebuildId"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"outcomeNote"}},{"kind":"Field","name":{"kind":"Name","value":"verification"}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"}}]}}]} as unknown as DocumentNode<RepairFieldsFragment, unknown>;
export const EraseStudentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EraseStudent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"userId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reason"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eraseStudent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"userId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"userId"}}},{"kind":"Argument","name":{"kind":"Name","value":"reason"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reason"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErasureFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErasureFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Erasure"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"subjectHash"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deadlineAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"aggregates"}},{"kind":"Field","name":{"kind":"Name","value":"findings"}},{"kind":"Field","name":{"kind":"Name","value":"failedAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"stores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"affected"}},{"kind":"Field","name":{"kind":"Name","value":"steps"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}},{"kind":"Field","name":{"kind":"Name","value":"certificate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"searched"}},{"kind":"Field","name":{"kind":"Name","value":"searchedAt"}},{"kind":"Field","name":{"kind":"Name","value":"found"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}}]}}]} as unknown as DocumentNode<EraseStudentMutation, EraseStudentMutationVariables>;
export const EraseCustomerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EraseCustomer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reason"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eraseCustomer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"reason"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reason"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErasureFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErasureFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Erasure"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"subjectHash"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deadlineAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"aggregates"}},{"kind":"Field","name":{"kind":"Name","value":"findings"}},{"kind":"Field","name":{"kind":"Name","value":"failedAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"stores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"affected"}},{"kind":"Field","name":{"kind":"Name","value":"steps"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}},{"kind":"Field","name":{"kind":"Name","value":"certificate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"searched"}},{"kind":"Field","name":{"kind":"Name","value":"searchedAt"}},{"kind":"Field","name":{"kind":"Name","value":"found"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}}]}}]} as unknown as DocumentNode<EraseCustomerMutation, EraseCustomerMutationVariables>;
export const ErasureDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Erasure"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"erasure"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErasureFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErasureFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Erasure"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"subjectHash"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deadlineAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"aggregates"}},{"kind":"Field","name":{"kind":"Name","value":"findings"}},{"kind":"Field","name":{"kind":"Name","value":"failedAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"stores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"affected"}},{"kind":"Field","name":{"kind":"Name","value":"steps"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}},{"kind":"Field","name":{"kind":"Name","value":"certificate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"searched"}},{"kind":"Field","name":{"kind":"Name","value":"searchedAt"}},{"kind":"Field","name":{"kind":"Name","value":"found"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}}]}}]} as unknown as DocumentNode<ErasureQuery, ErasureQueryVariables>;
export const ErasuresDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Erasures"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"erasures"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErasureFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErasureFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Erasure"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"subjectHash"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"deadlineAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"aggregates"}},{"kind":"Field","name":{"kind":"Name","value":"findings"}},{"kind":"Field","name":{"kind":"Name","value":"failedAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"stores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"done"}},{"kind":"Field","name":{"kind":"Name","value":"affected"}},{"kind":"Field","name":{"kind":"Name","value":"steps"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}},{"kind":"Field","name":{"kind":"Name","value":"certificate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"searched"}},{"kind":"Field","name":{"kind":"Name","value":"searchedAt"}},{"kind":"Field","name":{"kind":"Name","value":"found"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}}]}}]} as unknown as DocumentNode<ErasuresQuery, ErasuresQueryVariables>;
export const FaultRecordFitnessDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FaultRecordFitness"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RecordFitnessResultInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordFitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"isDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"detectId"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"schoolId"}},{"kind":"Field","name":{"kind":"Name","value":"grade"}}]}},{"kind":"Field","name":{"kind":"Name","value":"publication"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}},{"kind":"Field","name":{"kind":"Name","value":"replayed"}}]}}]}}]} as unknown as DocumentNode<FaultRecordFitnessMutation, FaultRecordFitnessMutationVariables>;
export const FaultCorrectFitnessDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FaultCorrectFitness"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"result"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Decimal"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"unit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"correctFitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}},{"kind":"Argument","name":{"kind":"Name","value":"result"},"value":{"kind":"Variable","name":{"kind":"Name","value":"result"}}},{"kind":"Argument","name":{"kind":"Name","value":"unit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"unit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"isDeleted"}}]}},{"kind":"Field","name":{"kind":"Name","value":"publication"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]}}]} as unknown as DocumentNode<FaultCorrectFitnessMutation, FaultCorrectFitnessMutationVariables>;
export const FaultDeleteFitnessDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FaultDeleteFitness"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteFitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"isDeleted"}}]}},{"kind":"Field","name":{"kind":"Name","value":"publication"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]}}]} as unknown as DocumentNode<FaultDeleteFitnessMutation, FaultDeleteFitnessMutationVariables>;
export const FaultPlaceOrderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FaultPlaceOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PlaceOrderInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"placeOrder"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderId"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"itemCount"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sku"}},{"kind":"Field","name":{"kind":"Name","value":"quantity"}},{"kind":"Field","name":{"kind":"Name","value":"unitPrice"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"replayed"}}]}}]}}]} as unknown as DocumentNode<FaultPlaceOrderMutation, FaultPlaceOrderMutationVariables>;
export const FaultFitnessFreshnessDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FaultFitnessFreshness"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"detectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fitnessResults"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"detectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"detectId"}}}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"pendingPublications"}},{"kind":"Field","name":{"kind":"Name","value":"lagMs"}}]}}]}}]}}]} as unknown as DocumentNode<FaultFitnessFreshnessQuery, FaultFitnessFreshnessQueryVariables>;
export const FaultOrdersFreshnessDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FaultOrdersFreshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orders"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"pendingPublications"}},{"kind":"Field","name":{"kind":"Name","value":"lagMs"}}]}}]}}]}}]} as unknown as DocumentNode<FaultOrdersFreshnessQuery, FaultOrdersFreshnessQueryVariables>;
export const FaultReconcileDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FaultReconcile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReconciliationScopeInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"level"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReconciliationLevel"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reconcile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"level"},"value":{"kind":"Variable","name":{"kind":"Name","value":"level"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"discrepanciesFound"}},{"kind":"Field","name":{"kind":"Name","value":"excludedChangedAfterSnapshot"}},{"kind":"Field","name":{"kind":"Name","value":"excludedInFlight"}},{"kind":"Field","name":{"kind":"Name","value":"levelReached"}},{"kind":"Field","name":{"kind":"Name","value":"note"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"discrepancies"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"sourceVersion"}},{"kind":"Field","name":{"kind":"Name","value":"targetVersion"}},{"kind":"Field","name":{"kind":"Name","value":"differingFields"}}]}}]}}]}}]} as unknown as DocumentNode<FaultReconcileMutation, FaultReconcileMutationVariables>;
export const RecordFitnessResultDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RecordFitnessResult"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RecordFitnessResultInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordFitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FitnessPayloadFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FitnessPayloadFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FitnessResultPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"publication"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}},{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"detectId"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"schoolId"}},{"kind":"Field","name":{"kind":"Name","value":"grade"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"isDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"shard"}}]}}]}}]} as unknown as DocumentNode<RecordFitnessResultMutation, RecordFitnessResultMutationVariables>;
export const CorrectFitnessResultDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CorrectFitnessResult"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"result"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Decimal"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"unit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"correctFitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}},{"kind":"Argument","name":{"kind":"Name","value":"result"},"value":{"kind":"Variable","name":{"kind":"Name","value":"result"}}},{"kind":"Argument","name":{"kind":"Name","value":"unit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"unit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FitnessPayloadFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FitnessPayloadFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FitnessResultPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"publication"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}},{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"detectId"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"schoolId"}},{"kind":"Field","name":{"kind":"Name","value":"grade"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"isDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"shard"}}]}}]}}]} as unknown as DocumentNode<CorrectFitnessResultMutation, CorrectFitnessResultMutationVariables>;
export const DeleteFitnessResultDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteFitnessResult"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteFitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FitnessPayloadFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FitnessPayloadFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FitnessResultPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"publication"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}},{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"detectId"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"schoolId"}},{"kind":"Field","name":{"kind":"Name","value":"grade"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"isDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"shard"}}]}}]}}]} as unknown as DocumentNode<DeleteFitnessResultMutation, DeleteFitnessResultMutationVariables>;
export const ParkedOutboxEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ParkedOutboxEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ParkedEventFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"parkedOutboxEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"shard"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"lastErrorCode"}},{"kind":"Field","name":{"kind":"Name","value":"lastErrorSummary"}},{"kind":"Field","name":{"kind":"Name","value":"parkedAt"}},{"kind":"Field","name":{"kind":"Name","value":"replayCount"}}]}}]}}]} as unknown as DocumentNode<ParkedOutboxEventsQuery, ParkedOutboxEventsQueryVariables>;
export const ReplayParkedEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReplayParkedEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ParkedEventFilter"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayParkedEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"events"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"shard"}}]}}]}}]}}]} as unknown as DocumentNode<ReplayParkedEventsMutation, ReplayParkedEventsMutationVariables>;
export const HealthDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ready"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failing"}},{"kind":"Field","name":{"kind":"Name","value":"degraded"}},{"kind":"Field","name":{"kind":"Name","value":"instanceId"}},{"kind":"Field","name":{"kind":"Name","value":"roles"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"stores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"up"}}]}}]}}]}}]} as unknown as DocumentNode<HealthQuery, HealthQueryVariables>;
export const LiveRebuildsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LiveRebuilds"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EventDomain"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projectionRebuilds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"domain"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"scopeKey"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"phase"}},{"kind":"Field","name":{"kind":"Name","value":"sourceRows"}},{"kind":"Field","name":{"kind":"Name","value":"quarantined"}},{"kind":"Field","name":{"kind":"Name","value":"shadowTable"}},{"kind":"Field","name":{"kind":"Name","value":"retiredTable"}},{"kind":"Field","name":{"kind":"Name","value":"validation"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"swappedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"errorSummary"}}]}}]}}]} as unknown as DocumentNode<LiveRebuildsQuery, LiveRebuildsQueryVariables>;
export const LiveOrderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LiveOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"consistency"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ConsistencyInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"orderId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}}},{"kind":"Argument","name":{"kind":"Name","value":"consistency"},"value":{"kind":"Variable","name":{"kind":"Name","value":"consistency"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}}]}}]} as unknown as DocumentNode<LiveOrderQuery, LiveOrderQueryVariables>;
export const DiscrepanciesPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DiscrepanciesPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DiscrepancyFilterInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"discrepancies"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}}]}}]}}]} as unknown as DocumentNode<DiscrepanciesPageQuery, DiscrepanciesPageQueryVariables>;
export const RepairsPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RepairsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"RepairFilterInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"repairs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}}]}}]}}]} as unknown as DocumentNode<RepairsPageQuery, RepairsPageQueryVariables>;
export const ProjectionRebuildsPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProjectionRebuildsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projectionRebuilds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ProjectionRebuildsPageQuery, ProjectionRebuildsPageQueryVariables>;
export const ReconciliationRunsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReconciliationRuns"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ReconciliationRunFilterInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reconciliationRuns"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"scopeKey"}},{"kind":"Field","name":{"kind":"Name","value":"trigger"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"levelRequested"}},{"kind":"Field","name":{"kind":"Name","value":"levelReached"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"note"}},{"kind":"Field","name":{"kind":"Name","value":"discrepanciesFound"}},{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"segment"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"target"}}]}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}}]}}]}}]} as unknown as DocumentNode<ReconciliationRunsQuery, ReconciliationRunsQueryVariables>;
export const ParkedEventsPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ParkedEventsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ParkedEventFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"parkedEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"shard"}},{"kind":"Field","name":{"kind":"Name","value":"lastErrorCode"}}]}}]}}]} as unknown as DocumentNode<ParkedEventsPageQuery, ParkedEventsPageQueryVariables>;
export const ProjectorDeadLettersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProjectorDeadLetters"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ProjectorDeadLetterFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projectorDeadLetters"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"topic"}},{"kind":"Field","name":{"kind":"Name","value":"partition"}},{"kind":"Field","name":{"kind":"Name","value":"offset"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"deadLetteredAt"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"replays"}},{"kind":"Field","name":{"kind":"Name","value":"lastReplayedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastReplayedBy"}}]}}]}}]} as unknown as DocumentNode<ProjectorDeadLettersQuery, ProjectorDeadLettersQueryVariables>;
export const ReplayProjectorDeadLettersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReplayProjectorDeadLetters"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ProjectorDeadLetterFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayProjectorDeadLetters"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ids"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projected"}},{"kind":"Field","name":{"kind":"Name","value":"rejectedAgain"}},{"kind":"Field","name":{"kind":"Name","value":"deadLetters"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"replays"}},{"kind":"Field","name":{"kind":"Name","value":"lastReplayedBy"}}]}}]}}]}}]} as unknown as DocumentNode<ReplayProjectorDeadLettersMutation, ReplayProjectorDeadLettersMutationVariables>;
export const ReconciliationHealthDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReconciliationHealth"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EventDomain"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicationHealth"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"domain"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"unresolvedDiscrepancies"}},{"kind":"Field","name":{"kind":"Name","value":"oldestVerificationAgeSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"scopesNeverVerified"}}]}}]}}]} as unknown as DocumentNode<ReconciliationHealthQuery, ReconciliationHealthQueryVariables>;
export const PublicationHealthDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PublicationHealth"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EventDomain"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicationHealth"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"domain"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"projectionLagMs"}},{"kind":"Field","name":{"kind":"Name","value":"unresolvedDiscrepancies"}},{"kind":"Field","name":{"kind":"Name","value":"repairsAwaitingVerification"}},{"kind":"Field","name":{"kind":"Name","value":"stores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"parked"}},{"kind":"Field","name":{"kind":"Name","value":"deadLettered"}},{"kind":"Field","name":{"kind":"Name","value":"expiredClaims"}},{"kind":"Field","name":{"kind":"Name","value":"oldestUnsentAgeSeconds"}}]}}]}}]}}]} as unknown as DocumentNode<PublicationHealthQuery, PublicationHealthQueryVariables>;
export const PlaceOrderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PlaceOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PlaceOrderInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"placeOrder"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"publication"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}},{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderId"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"itemCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sku"}},{"kind":"Field","name":{"kind":"Name","value":"quantity"}},{"kind":"Field","name":{"kind":"Name","value":"unitPrice"}}]}}]}}]}}]}}]} as unknown as DocumentNode<PlaceOrderMutation, PlaceOrderMutationVariables>;
export const KafkaFirstPublicationsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"KafkaFirstPublications"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"EventDomain"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EventPublicationStatus"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publications"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"domain"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endCursor"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"directAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"directResult"}},{"kind":"Field","name":{"kind":"Name","value":"relayAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"replayCount"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"claimExpiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"publishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastErrorCode"}},{"kind":"Field","name":{"kind":"Name","value":"lastErrorSummary"}}]}}]}}]}}]} as unknown as DocumentNode<KafkaFirstPublicationsQuery, KafkaFirstPublicationsQueryVariables>;
export const ReplayDeadLettersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReplayDeadLetters"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReplayDeadLettersInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayDeadLetters"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayedCount"}},{"kind":"Field","name":{"kind":"Name","value":"eventIds"}}]}}]}}]} as unknown as DocumentNode<ReplayDeadLettersMutation, ReplayDeadLettersMutationVariables>;
export const PublicationStateChangedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"PublicationStateChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EventDomain"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"states"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ObservedPublicationState"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"aggregateId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicationStateChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"domain"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain"}}},{"kind":"Argument","name":{"kind":"Name","value":"states"},"value":{"kind":"Variable","name":{"kind":"Name","value":"states"}}},{"kind":"Argument","name":{"kind":"Name","value":"aggregateId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"aggregateId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<PublicationStateChangedSubscription, PublicationStateChangedSubscriptionVariables>;
export const FitnessResultByIdDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FitnessResultById"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FitnessViewFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FreshnessFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FitnessViewFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FitnessResultView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"detectId"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"schoolId"}},{"kind":"Field","name":{"kind":"Name","value":"grade"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"ingestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"shard"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FreshnessFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Freshness"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"watermark"}},{"kind":"Field","name":{"kind":"Name","value":"lagMs"}},{"kind":"Field","name":{"kind":"Name","value":"pendingPublications"}},{"kind":"Field","name":{"kind":"Name","value":"lagMessages"}},{"kind":"Field","name":{"kind":"Name","value":"asOf"}}]}}]} as unknown as DocumentNode<FitnessResultByIdQuery, FitnessResultByIdQueryVariables>;
export const FitnessResultsPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FitnessResultsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"FitnessResultFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fitnessResults"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FitnessViewFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endCursor"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FreshnessFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FitnessViewFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FitnessResultView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"detectId"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"schoolId"}},{"kind":"Field","name":{"kind":"Name","value":"grade"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"ingestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"shard"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FreshnessFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Freshness"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"watermark"}},{"kind":"Field","name":{"kind":"Name","value":"lagMs"}},{"kind":"Field","name":{"kind":"Name","value":"pendingPublications"}},{"kind":"Field","name":{"kind":"Name","value":"lagMessages"}},{"kind":"Field","name":{"kind":"Name","value":"asOf"}}]}}]} as unknown as DocumentNode<FitnessResultsPageQuery, FitnessResultsPageQueryVariables>;
export const FitnessResultsWithStudentsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FitnessResultsWithStudents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"FitnessResultFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fitnessResults"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"studentResults"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"result"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<FitnessResultsWithStudentsQuery, FitnessResultsWithStudentsQueryVariables>;
export const FitnessReportByDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FitnessReportBy"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"detectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"groupBy"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FitnessReportGroupBy"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fitnessReport"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"detectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"detectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"groupBy"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"detectId"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"groupBy"}},{"kind":"Field","name":{"kind":"Name","value":"groups"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"min"}},{"kind":"Field","name":{"kind":"Name","value":"max"}},{"kind":"Field","name":{"kind":"Name","value":"average"}},{"kind":"Field","name":{"kind":"Name","value":"p50"}},{"kind":"Field","name":{"kind":"Name","value":"p90"}},{"kind":"Field","name":{"kind":"Name","value":"p99"}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FreshnessFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FreshnessFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Freshness"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"watermark"}},{"kind":"Field","name":{"kind":"Name","value":"lagMs"}},{"kind":"Field","name":{"kind":"Name","value":"pendingPublications"}},{"kind":"Field","name":{"kind":"Name","value":"lagMessages"}},{"kind":"Field","name":{"kind":"Name","value":"asOf"}}]}}]} as unknown as DocumentNode<FitnessReportByQuery, FitnessReportByQueryVariables>;
export const OrderByIdDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrderById"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"orderId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderId"}},{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"OrderViewFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FreshnessFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrderViewFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OrderView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderId"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"itemCount"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"ingestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sku"}},{"kind":"Field","name":{"kind":"Name","value":"quantity"}},{"kind":"Field","name":{"kind":"Name","value":"unitPrice"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FreshnessFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Freshness"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"watermark"}},{"kind":"Field","name":{"kind":"Name","value":"lagMs"}},{"kind":"Field","name":{"kind":"Name","value":"pendingPublications"}},{"kind":"Field","name":{"kind":"Name","value":"lagMessages"}},{"kind":"Field","name":{"kind":"Name","value":"asOf"}}]}}]} as unknown as DocumentNode<OrderByIdQuery, OrderByIdQueryVariables>;
export const OrdersPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrdersPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"OrderFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orders"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"OrderViewFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endCursor"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FreshnessFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrderViewFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OrderView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderId"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"itemCount"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"ingestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sku"}},{"kind":"Field","name":{"kind":"Name","value":"quantity"}},{"kind":"Field","name":{"kind":"Name","value":"unitPrice"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FreshnessFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Freshness"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"watermark"}},{"kind":"Field","name":{"kind":"Name","value":"lagMs"}},{"kind":"Field","name":{"kind":"Name","value":"pendingPublications"}},{"kind":"Field","name":{"kind":"Name","value":"lagMessages"}},{"kind":"Field","name":{"kind":"Name","value":"asOf"}}]}}]} as unknown as DocumentNode<OrdersPageQuery, OrdersPageQueryVariables>;
export const OrderReportByDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrderReportBy"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTimeISO"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTimeISO"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"groupBy"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OrderReportGroupBy"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderReport"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"groupBy"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"groupBy"}},{"kind":"Field","name":{"kind":"Name","value":"groups"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"orderCount"}},{"kind":"Field","name":{"kind":"Name","value":"itemCount"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"averageTotal"}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FreshnessFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FreshnessFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Freshness"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"watermark"}},{"kind":"Field","name":{"kind":"Name","value":"lagMs"}},{"kind":"Field","name":{"kind":"Name","value":"pendingPublications"}},{"kind":"Field","name":{"kind":"Name","value":"lagMessages"}},{"kind":"Field","name":{"kind":"Name","value":"asOf"}}]}}]} as unknown as DocumentNode<OrderReportByQuery, OrderReportByQueryVariables>;
export const RywRecordDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RywRecord"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RecordFitnessResultInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordFitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}},{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"consistencyToken"}}]}}]}}]} as unknown as DocumentNode<RywRecordMutation, RywRecordMutationVariables>;
export const RywCorrectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RywCorrect"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"result"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Decimal"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"correctFitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}},{"kind":"Argument","name":{"kind":"Name","value":"result"},"value":{"kind":"Variable","name":{"kind":"Name","value":"result"}}},{"kind":"Argument","name":{"kind":"Name","value":"unit"},"value":{"kind":"StringValue","value":"m","block":false}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}},{"kind":"Field","name":{"kind":"Name","value":"consistencyToken"}}]}}]}}]} as unknown as DocumentNode<RywCorrectMutation, RywCorrectMutationVariables>;
export const RywPlaceOrderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RywPlaceOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PlaceOrderInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"placeOrder"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"consistencyToken"}}]}}]}}]} as unknown as DocumentNode<RywPlaceOrderMutation, RywPlaceOrderMutationVariables>;
export const RywReportDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RywReport"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"detectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"consistency"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ConsistencyInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fitnessReport"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"detectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"detectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"EnumValue","value":"SCHOOL"}},{"kind":"Argument","name":{"kind":"Name","value":"consistency"},"value":{"kind":"Variable","name":{"kind":"Name","value":"consistency"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"groups"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"max"}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"missing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MissingFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MissingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MissingVersion"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]} as unknown as DocumentNode<RywReportQuery, RywReportQueryVariables>;
export const RywLookupDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RywLookup"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"consistency"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ConsistencyInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}}},{"kind":"Argument","name":{"kind":"Name","value":"consistency"},"value":{"kind":"Variable","name":{"kind":"Name","value":"consistency"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"result"}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"missing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MissingFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MissingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MissingVersion"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]} as unknown as DocumentNode<RywLookupQuery, RywLookupQueryVariables>;
export const RywOrderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RywOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"consistency"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ConsistencyInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"orderId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}}},{"kind":"Argument","name":{"kind":"Name","value":"consistency"},"value":{"kind":"Variable","name":{"kind":"Name","value":"consistency"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"missing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MissingFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MissingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MissingVersion"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]} as unknown as DocumentNode<RywOrderQuery, RywOrderQueryVariables>;
export const RywWriteVisibleDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"RywWriteVisible"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"token"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"writeVisible"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"consistencyToken"},"value":{"kind":"Variable","name":{"kind":"Name","value":"token"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"visible"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"missing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MissingFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MissingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MissingVersion"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]} as unknown as DocumentNode<RywWriteVisibleSubscription, RywWriteVisibleSubscriptionVariables>;
export const ReconcileDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Reconcile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReconciliationScopeInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"level"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReconciliationLevel"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"escalate"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reconcile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"level"},"value":{"kind":"Variable","name":{"kind":"Name","value":"level"}}},{"kind":"Argument","name":{"kind":"Name","value":"escalate"},"value":{"kind":"Variable","name":{"kind":"Name","value":"escalate"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scopeKey"}},{"kind":"Field","name":{"kind":"Name","value":"levelReached"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"note"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"bucketsCompared"}},{"kind":"Field","name":{"kind":"Name","value":"bucketsMismatched"}},{"kind":"Field","name":{"kind":"Name","value":"discrepanciesFound"}},{"kind":"Field","name":{"kind":"Name","value":"excludedChangedAfterSnapshot"}},{"kind":"Field","name":{"kind":"Name","value":"excludedInFlight"}},{"kind":"Field","name":{"kind":"Name","value":"revisionBefore"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"aggregates"}},{"kind":"Field","name":{"kind":"Name","value":"versionSum"}}]}},{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"segment"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"target"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"discrepancies"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DiscrepancyFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DiscrepancyFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DiscrepancyView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"sourceVersion"}},{"kind":"Field","name":{"kind":"Name","value":"targetVersion"}},{"kind":"Field","name":{"kind":"Name","value":"sourceDigest"}},{"kind":"Field","name":{"kind":"Name","value":"targetDigest"}},{"kind":"Field","name":{"kind":"Name","value":"differingFields"}},{"kind":"Field","name":{"kind":"Name","value":"resolution"}}]}}]} as unknown as DocumentNode<ReconcileMutation, ReconcileMutationVariables>;
export const DiscrepanciesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Discrepancies"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DiscrepancyFilterInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"discrepancies"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DiscrepancyFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DiscrepancyFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DiscrepancyView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"sourceVersion"}},{"kind":"Field","name":{"kind":"Name","value":"targetVersion"}},{"kind":"Field","name":{"kind":"Name","value":"sourceDigest"}},{"kind":"Field","name":{"kind":"Name","value":"targetDigest"}},{"kind":"Field","name":{"kind":"Name","value":"differingFields"}},{"kind":"Field","name":{"kind":"Name","value":"resolution"}}]}}]} as unknown as DocumentNode<DiscrepanciesQuery, DiscrepanciesQueryVariables>;
export const RepairDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Repair"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"repair"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"discrepancyIds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RepairFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RepairFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RepairView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"discrepancyId"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"sourceVersion"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"rebuildId"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"outcomeNote"}},{"kind":"Field","name":{"kind":"Name","value":"verification"}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"}}]}}]} as unknown as DocumentNode<RepairMutation, RepairMutationVariables>;
export const RemoveUnexpectedRowsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveUnexpectedRows"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reason"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeUnexpectedRows"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"discrepancyIds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}},{"kind":"Argument","name":{"kind":"Name","value":"reason"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reason"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RepairFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RepairFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RepairView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"discrepancyId"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"sourceVersion"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"rebuildId"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"outcomeNote"}},{"kind":"Field","name":{"kind":"Name","value":"verification"}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"}}]}}]} as unknown as DocumentNode<RemoveUnexpectedRowsMutation, RemoveUnexpectedRowsMutationVariables>;
export const RebuildProjectionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RebuildProjection"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"EventDomain"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReconciliationScopeInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reason"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rebuildProjection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"domain"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain"}}},{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"reason"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reason"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"phase"}},{"kind":"Field","name":{"kind":"Name","value":"sourceRows"}},{"kind":"Field","name":{"kind":"Name","value":"quarantined"}},{"kind":"Field","name":{"kind":"Name","value":"retiredTable"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"validation"}}]}}]}}]} as unknown as DocumentNode<RebuildProjectionMutation, RebuildProjectionMutationVariables>;
export const RepairsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Repairs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"RepairFilterInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"repairs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RepairFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RepairFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RepairView"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"discrepancyId"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"aggregateId"}},{"kind":"Field","name":{"kind":"Name","value":"sourceVersion"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"rebuildId"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"outcomeNote"}},{"kind":"Field","name":{"kind":"Name","value":"verification"}},{"kind":"Field","name":{"kind":"Name","value":"requestedBy"}}]}}]} as unknown as DocumentNode<RepairsQuery, RepairsQueryVariables>;
export const ProjectionRebuildsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProjectionRebuilds"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projectionRebuilds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"phase"}},{"kind":"Field","name":{"kind":"Name","value":"quarantined"}}]}}]}}]} as unknown as DocumentNode<ProjectionRebuildsQuery, ProjectionRebuildsQueryVariables>;
export const EventSchemaHealthDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EventSchemaHealth"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"domain"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EventDomain"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publicationHealth"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"domain"},"value":{"kind":"Variable","name":{"kind":"Name","value":"domain"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"eventSchema"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"writing"}},{"kind":"Field","name":{"kind":"Name","value":"newestKnown"}},{"kind":"Field","name":{"kind":"Name","value":"readersAgree"}}]}}]}}]}}]} as unknown as DocumentNode<EventSchemaHealthQuery, EventSchemaHealthQueryVariables>;
export const UpgradeRecordDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpgradeRecord"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RecordFitnessResultInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordFitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}}]}}]}}]}}]} as unknown as DocumentNode<UpgradeRecordMutation, UpgradeRecordMutationVariables>;
export const UpgradePlaceOrderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpgradePlaceOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PlaceOrderInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"placeOrder"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderId"}}]}}]}}]}}]} as unknown as DocumentNode<UpgradePlaceOrderMutation, UpgradePlaceOrderMutationVariables>;
export const UpgradeReadsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UpgradeReads"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"detectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fitnessResults"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"detectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"detectId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"projectId"},"value":{"kind":"IntValue","value":"3"}}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"orders"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"freshness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}}]}}]} as unknown as DocumentNode<UpgradeReadsQuery, UpgradeReadsQueryVariables>;
export const UpgradeResultDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UpgradeResult"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"measuredAt"}},{"kind":"Field","name":{"kind":"Name","value":"changedBy"}}]}}]}}]}}]} as unknown as DocumentNode<UpgradeResultQuery, UpgradeResultQueryVariables>;
export const UpgradeOrderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UpgradeOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"orderId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"channel"}},{"kind":"Field","name":{"kind":"Name","value":"changedBy"}}]}}]}}]}}]} as unknown as DocumentNode<UpgradeOrderQuery, UpgradeOrderQueryVariables>;
export const RecordFitnessResultAuthoredDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RecordFitnessResultAuthored"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RecordFitnessResultInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordFitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"schoolId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"changedBy"}}]}}]}}]}}]} as unknown as DocumentNode<RecordFitnessResultAuthoredMutation, RecordFitnessResultAuthoredMutationVariables>;
export const MoveFitnessResultDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"MoveFitnessResult"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"result"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Decimal"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"unit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"schoolId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"correctFitnessResult"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dataId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dataId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}},{"kind":"Argument","name":{"kind":"Name","value":"result"},"value":{"kind":"Variable","name":{"kind":"Name","value":"result"}}},{"kind":"Argument","name":{"kind":"Name","value":"unit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"unit"}}},{"kind":"Argument","name":{"kind":"Name","value":"schoolId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"schoolId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"result"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataId"}},{"kind":"Field","name":{"kind":"Name","value":"schoolId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"changedBy"}}]}}]}}]}}]} as unknown as DocumentNode<MoveFitnessResultMutation, MoveFitnessResultMutationVariables>;
export const PlaceOrderAuthoredDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PlaceOrderAuthored"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PlaceOrderInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"placeOrder"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderId"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"changedBy"}}]}}]}}]}}]} as unknown as DocumentNode<PlaceOrderAuthoredMutation, PlaceOrderAuthoredMutationVariables>;