/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** A fitness campaign (detectId), optionally one project (test item) of it. */
export type CampaignScopeInput = {
  detectId: number;
  projectId?: number | null | undefined;
};

export type DiscrepancyFilterInput = {
  aggregateId?: string | null | undefined;
  domain?: EventDomain | null | undefined;
  kinds?: Array<DiscrepancyKind> | null | undefined;
  scopeKey?: string | null | undefined;
  statuses?: Array<DiscrepancyStatus> | null | undefined;
};

export type DiscrepancyKind = 'CONTENT_MISMATCH' | 'DELETION_NOT_APPLIED' | 'MISSING' | 'STALE_VERSION' | 'UNEXPECTED_ROW';

export type DiscrepancyStatus = 'OPEN' | 'REPAIRING' | 'RESOLVED';

/** A scope of another registered domain: its name and the scope as that domain's JSON (checked by it). */
export type DomainScopeInput = {
  domain: string;
  /** The scope as JSON text, e.g. {"notebookId":"..."}; at most 4,096 characters. */
  scope: string;
};

/** The domain an event belongs to. */
export type EventDomain = 'fitness' | 'orders';

/** State of a kafka-first event_publications row: NOT_PUBLISHED (waiting for the relay), PUBLISHED (relayed), DEAD_LETTER (relay gave up; operator replay). */
export type EventPublicationStatus = 'DEAD_LETTER' | 'NOT_PUBLISHED' | 'PUBLISHED';

/** How a fitness report groups results. */
export type FitnessReportGroupBy = 'GRADE' | 'SCHOOL';

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

/** DAY groups by UTC day and currency; CURRENCY by currency; CHANNEL by sales channel and currency (UNKNOWN: not said). */
export type OrderReportGroupBy = 'CHANNEL' | 'CURRENCY' | 'DAY';

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

export type ProjectionRebuildStatus = 'FAILED' | 'RUNNING' | 'VERIFIED';

/**
 * COUNTS: latest non-deleted records per segment.
 * IDS: ids, versions and deletion state.
 * CONTENT: canonical content digests (finds equal-version field errors).
 */
export type ReconciliationLevel = 'CONTENT' | 'COUNTS' | 'IDS';

/** CATCHING_UP and SCOPE_CHANGED are normal delay: nothing was recorded as a discrepancy; try again later. */
export type ReconciliationOutcome = 'CATCHING_UP' | 'CLEAN' | 'DISCREPANCIES' | 'FAILED' | 'SCOPE_CHANGED';

/** Exactly one of campaign (fitness), orderWindow (orders) or domain (any other registered domain). */
export type ReconciliationScopeInput = {
  campaign?: CampaignScopeInput | null | undefined;
  domain?: DomainScopeInput | null | undefined;
  orderWindow?: OrderWindowInput | null | undefined;
};

export type RepairAction = 'INVESTIGATE' | 'QUARANTINE_SWEEP' | 'REBUILD' | 'REMOVE_UNEXPECTED' | 'REPLAY' | 'TOMBSTONE';

export type RepairOutcome = 'COMPLETED' | 'FAILED' | 'REFUSED' | 'SENT';

export type RepairVerification = 'FAILED' | 'NOT_APPLICABLE' | 'PASSED' | 'PENDING';

/** Which DEAD_LETTER rows to replay. */
export type ReplayDeadLettersInput = {
  domain: EventDomain;
  /** Only these events (all DEAD_LETTER rows of the domain when omitted). */
  eventIds?: Array<string> | null | undefined;
  /** At most this many rows (1-1000), oldest first. */
  limit?: number;
};

export type ConsoleSignInProbeQueryVariables = Exact<{ [key: string]: never }>;

export type ConsoleSignInProbeQuery = { fitnessResult: { dataId: string } };

export type FreshnessBadgeFragment = {
  status: FreshnessStatus;
  reason: FreshnessReason;
  detail: string;
  asOf: string;
  lagMs: number | null;
  pendingPublications: number;
};

export type ConsolePipelineQueryVariables = Exact<{ [key: string]: never }>;

export type ConsolePipelineQuery = {
  publicationHealth: Array<{
    domain: EventDomain;
    projectionLagMs: number | null;
    unresolvedDiscrepancies: number | null;
    repairsAwaitingVerification: number | null;
    eventSchema: { writing: number; newestKnown: number; readersAgree: number | null } | null;
    stores: Array<{
      store: string;
      pending: number;
      failed: number;
      parked: number;
      deadLettered: number;
      expiredClaims: number;
      oldestUnsentAgeSeconds: number;
    }>;
  }>;
  fitnessResults: {
    freshness: {
      status: FreshnessStatus;
      reason: FreshnessReason;
      detail: string;
      asOf: string;
      lagMs: number | null;
      pendingPublications: number;
    };
  };
  orders: {
    freshness: {
      status: FreshnessStatus;
      reason: FreshnessReason;
      detail: string;
      asOf: string;
      lagMs: number | null;
      pendingPublications: number;
    };
  };
};

export type ConsoleStateChangesSubscriptionVariables = Exact<{
  domain?: EventDomain | null | undefined;
  states?: Array<ObservedPublicationState> | ObservedPublicationState | null | undefined;
  aggregateId?: string | null | undefined;
}>;

export type ConsoleStateChangesSubscription = {
  publicationStateChanged: {
    eventId: string;
    domain: EventDomain;
    aggregateId: string;
    version: number;
    from: ObservedPublicationState | null;
    to: ObservedPublicationState;
    attempt: number;
    at: string;
  };
};

export type ConsoleDeadLettersQueryVariables = Exact<{
  domain: EventDomain;
  first: number;
  after?: string | null | undefined;
}>;

export type ConsoleDeadLettersQuery = {
  deadLetters: {
    endCursor: string | null;
    hasNextPage: boolean;
    nodes: Array<{
      eventId: string;
      domain: EventDomain;
      aggregateId: string;
      version: number;
      status: EventPublicationStatus;
      source: string;
      relayAttempts: number;
      replayCount: number;
      lastErrorCode: string | null;
      lastErrorSummary: string | null;
      createdAt: string;
    }>;
  };
};

export type ConsoleReplayDeadLettersMutationVariables = Exact<{
  filter: ReplayDeadLettersInput;
}>;

export type ConsoleReplayDeadLettersMutation = { replayDeadLetters: { replayedCount: number; eventIds: Array<string> } };

export type ConsoleParkedEventsQueryVariables = Exact<{
  filter?: ParkedEventFilter | null | undefined;
  first: number;
}>;

export type ConsoleParkedEventsQuery = {
  parkedEvents: Array<{
    eventId: string;
    domain: string;
    store: string;
    shard: number;
    aggregateId: string;
    version: number;
    attempts: number;
    replayCount: number;
    lastErrorCode: string | null;
    lastErrorSummary: string | null;
    parkedAt: string | null;
  }>;
};

export type ConsoleReplayParkedEventsMutationVariables = Exact<{
  filter: ParkedEventFilter;
  limit: number;
}>;

export type ConsoleReplayParkedEventsMutation = {
  replayParkedEvents: { count: number; events: Array<{ eventId: string; domain: string; aggregateId: string; version: number }> };
};

export type ConsoleRunFragment = {
  id: string;
  domain: EventDomain;
  scopeKey: string;
  levelRequested: ReconciliationLevel;
  levelReached: ReconciliationLevel | null;
  outcome: ReconciliationOutcome | null;
  note: string | null;
  trigger: string;
  attempts: number;
  discrepanciesFound: number;
  excludedChangedAfterSnapshot: number;
  excludedInFlight: number;
  bucketsCompared: number;
  bucketsMismatched: number;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  errorCode: string | null;
  errorSummary: string | null;
  counts: Array<{ segment: string; source: number; target: number }>;
};

export type ConsoleDiscrepancyFragment = {
  id: string;
  domain: EventDomain;
  scopeKey: string;
  aggregateId: string;
  kind: DiscrepancyKind;
  status: DiscrepancyStatus;
  sourceVersion: number | null;
  targetVersion: number | null;
  differingFields: Array<string>;
  resolution: string | null;
  seenCount: number;
  lastSeenAt: string;
};

export type ConsoleRepairFragment = {
  id: string;
  discrepancyId: string | null;
  domain: EventDomain;
  aggregateId: string | null;
  action: RepairAction;
  outcome: RepairOutcome;
  outcomeNote: string | null;
  verification: RepairVerification;
  verificationAttempts: number;
  reason: string;
  requestedBy: string;
  eventId: string | null;
  rebuildId: string | null;
  createdAt: string;
  verifiedAt: string | null;
  errorCode: string | null;
  errorSummary: string | null;
};

export type ConsoleRebuildFragment = {
  id: string;
  domain: EventDomain;
  scopeKey: string;
  phase: string;
  status: ProjectionRebuildStatus;
  reason: string;
  requestedBy: string;
  sourceRows: number;
  quarantined: number;
  startedAt: string;
  finishedAt: string | null;
  errorCode: string | null;
  errorSummary: string | null;
};

export type ConsoleReconcileMutationVariables = Exact<{
  scope: ReconciliationScopeInput;
  level: ReconciliationLevel;
  escalate: boolean;
}>;

export type ConsoleReconcileMutation = {
  reconcile: {
    run: {
      id: string;
      domain: EventDomain;
      scopeKey: string;
      levelRequested: ReconciliationLevel;
      levelReached: ReconciliationLevel | null;
      outcome: ReconciliationOutcome | null;
      note: string | null;
      trigger: string;
      attempts: number;
      discrepanciesFound: number;
      excludedChangedAfterSnapshot: number;
      excludedInFlight: number;
      bucketsCompared: number;
      bucketsMismatched: number;
      startedAt: string;
      finishedAt: string | null;
      durationMs: number | null;
      errorCode: string | null;
      errorSummary: string | null;
      counts: Array<{ segment: string; source: number; target: number }>;
    };
    discrepancies: Array<{
      id: string;
      domain: EventDomain;
      scopeKey: string;
      aggregateId: string;
      kind: DiscrepancyKind;
      status: DiscrepancyStatus;
      sourceVersion: number | null;
      targetVersion: number | null;
      differingFields: Array<string>;
      resolution: string | null;
      seenCount: number;
      lastSeenAt: string;
    }>;
  };
};

export type ConsoleReconciliationQueryVariables = Exact<{
  filter?: DiscrepancyFilterInput | null | undefined;
  first: number;
}>;

export type ConsoleReconciliationQuery = {
  discrepancies: Array<{
    id: string;
    domain: EventDomain;
    scopeKey: string;
    aggregateId: string;
    kind: DiscrepancyKind;
    status: DiscrepancyStatus;
    sourceVersion: number | null;
    targetVersion: number | null;
    differingFields: Array<string>;
    resolution: string | null;
    seenCount: number;
    lastSeenAt: string;
  }>;
  repairs: Array<{
    id: string;
    discrepancyId: string | null;
    domain: EventDomain;
    aggregateId: string | null;
    action: RepairAction;
    outcome: RepairOutcome;
    outcomeNote: string | null;
    verification: RepairVerification;
    verificationAttempts: number;
    reason: string;
    requestedBy: string;
    eventId: string | null;
    rebuildId: string | null;
    createdAt: string;
    verifiedAt: string | null;
    errorCode: string | null;
    errorSummary: string | null;
  }>;
  projectionRebuilds: Array<{
    id: string;
    domain: EventDomain;
    scopeKey: string;
    phase: string;
    status: ProjectionRebuildStatus;
    reason: string;
    requestedBy: string;
    sourceRows: number;
    quarantined: number;
    startedAt: string;
    finishedAt: string | null;
    errorCode: string | null;
    errorSummary: string | null;
  }>;
};

export type ConsoleRepairMutationVariables = Exact<{
  ids: Array<string | number> | string | number;
}>;

export type ConsoleRepairMutation = {
  repair: Array<{
    id: string;
    discrepancyId: string | null;
    domain: EventDomain;
    aggregateId: string | null;
    action: RepairAction;
    outcome: RepairOutcome;
    outcomeNote: string | null;
    verification: RepairVerification;
    verificationAttempts: number;
    reason: string;
    requestedBy: string;
    eventId: string | null;
    rebuildId: string | null;
    createdAt: string;
    verifiedAt: string | null;
    errorCode: string | null;
    errorSummary: string | null;
  }>;
};

export type ConsoleRemoveUnexpectedRowsMutationVariables = Exact<{
  ids: Array<string | number> | string | number;
  reason: string;
}>;

export type ConsoleRemoveUnexpectedRowsMutation = {
  removeUnexpectedRows: Array<{
    id: string;
    discrepancyId: string | null;
    domain: EventDomain;
    aggregateId: string | null;
    action: RepairAction;
    outcome: RepairOutcome;
    outcomeNote: string | null;
    verification: RepairVerification;
    verificationAttempts: number;
    reason: string;
    requestedBy: string;
    eventId: string | null;
    rebuildId: string | null;
    createdAt: string;
    verifiedAt: string | null;
    errorCode: string | null;
    errorSummary: string | null;
  }>;
};

export type ConsoleRebuildProjectionMutationVariables = Exact<{
  domain: EventDomain;
  scope: ReconciliationScopeInput;
  reason: string;
}>;

export type ConsoleRebuildProjectionMutation = {
  rebuildProjection: {
    id: string;
    domain: EventDomain;
    scopeKey: string;
    phase: string;
    status: ProjectionRebuildStatus;
    reason: string;
    requestedBy: string;
    sourceRows: number;
    quarantined: number;
    startedAt: string;
    finishedAt: string | null;
    errorCode: string | null;
    errorSummary: string | null;
  };
};

export type ConsoleFitnessReportQueryVariables = Exact<{
  detectId: number;
  projectId: number;
  groupBy: FitnessReportGroupBy;
}>;

export type ConsoleFitnessReportQuery = {
  fitnessReport: {
    detectId: number;
    projectId: number;
    groupBy: FitnessReportGroupBy;
    suppressedGroups: number;
    groups: Array<{ key: number; unit: string; count: number; min: string; p50: string; p90: string; max: string; average: string }>;
    freshness: {
      status: FreshnessStatus;
      reason: FreshnessReason;
      detail: string;
      asOf: string;
      lagMs: number | null;
      pendingPublications: number;
    };
  };
};

export type ConsoleOrderReportQueryVariables = Exact<{
  from: string;
  to: string;
  groupBy: OrderReportGroupBy;
}>;

export type ConsoleOrderReportQuery = {
  orderReport: {
    from: string;
    to: string;
    groupBy: OrderReportGroupBy;
    suppressedGroups: number;
    groups: Array<{ key: string; currency: string; orderCount: number; itemCount: number; total: string; averageTotal: string }>;
    freshness: {
      status: FreshnessStatus;
      reason: FreshnessReason;
      detail: string;
      asOf: string;
      lagMs: number | null;
      pendingPublications: number;
    };
  };
};

export class TypedDocumentString<TResult, TVariables> extends String implements DocumentTypeDecoration<TResult, TVariables> {
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const FreshnessBadgeFragmentDoc = new TypedDocumentString(
  `
    fragment FreshnessBadge on Freshness {
  status
  reason
  detail
  asOf
  lagMs
  pendingPublications
}
    `,
  { fragmentName: 'FreshnessBadge' },
) as unknown as TypedDocumentString<FreshnessBadgeFragment, unknown>;
export const ConsoleRunFragmentDoc = new TypedDocumentString(
  `
    fragment ConsoleRun on ReconciliationRunView {
  id
  domain
  scopeKey
  levelRequested
  levelReached
  outcome
  note
  trigger
  attempts
  discrepanciesFound
  excludedChangedAfterSnapshot
  excludedInFlight
  bucketsCompared
  bucketsMismatched
  startedAt
  finishedAt
  durationMs
  errorCode
  errorSummary
  counts {
    segment
    source
    target
  }
}
    `,
  { fragmentName: 'ConsoleRun' },
) as unknown as TypedDocumentString<ConsoleRunFragment, unknown>;
export const ConsoleDiscrepancyFragmentDoc = new TypedDocumentString(
  `
    fragment ConsoleDiscrepancy on DiscrepancyView {
  id
  domain
  scopeKey
  aggregateId
  kind
  status
  sourceVersion
  targetVersion
  differingFields
  resolution
  seenCount
  lastSeenAt
}
    `,
  { fragmentName: 'ConsoleDiscrepancy' },
) as unknown as TypedDocumentString<ConsoleDiscrepancyFragment, unknown>;
export const ConsoleRepairFragmentDoc = new TypedDocumentString(
  `
    fragment ConsoleRepair on RepairView {
  id
  discrepancyId
  domain
  aggregateId
  action
  outcome
  outcomeNote
  verification
  verificationAttempts
  reason
  requestedBy
  eventId
  rebuildId
  createdAt
  verifiedAt
  errorCode
  errorSummary
}
    `,
  { fragmentName: 'ConsoleRepair' },
) as unknown as TypedDocumentString<ConsoleRepairFragment, unknown>;
export const ConsoleRebuildFragmentDoc = new TypedDocumentString(
  `
    fragment ConsoleRebuild on ProjectionRebuildView {
  id
  domain
  scopeKey
  phase
  status
  reason
  requestedBy
  sourceRows
  quarantined
  startedAt
  finishedAt
  errorCode
  errorSummary
}
    `,
  { fragmentName: 'ConsoleRebuild' },
) as unknown as TypedDocumentString<ConsoleRebuildFragment, unknown>;
export const ConsoleSignInProbeDocument = new TypedDocumentString(`
    query ConsoleSignInProbe {
  fitnessResult(dataId: "0") {
    dataId
  }
}
    `) as unknown as TypedDocumentString<ConsoleSignInProbeQuery, ConsoleSignInProbeQueryVariables>;
export const ConsolePipelineDocument = new TypedDocumentString(`
    query ConsolePipeline {
  publicationHealth {
    domain
    projectionLagMs
    unresolvedDiscrepancies
    repairsAwaitingVerification
    eventSchema {
      writing
      newestKnown
      readersAgree
    }
    stores {
      store
      pending
      failed
      parked
      deadLettered
      expiredClaims
      oldestUnsentAgeSeconds
    }
  }
  fitnessResults(first: 1) {
    freshness {
      ...FreshnessBadge
    }
  }
  orders(first: 1) {
    freshness {
      ...FreshnessBadge
    }
  }
}
    fragment FreshnessBadge on Freshness {
  status
  reason
  detail
  asOf
  lagMs
  pendingPublications
}`) as unknown as TypedDocumentString<ConsolePipelineQuery, ConsolePipelineQueryVariables>;
export const ConsoleStateChangesDocument = new TypedDocumentString(`
    subscription ConsoleStateChanges($domain: EventDomain, $states: [ObservedPublicationState!], $aggregateId: String) {
  publicationStateChanged(
    domain: $domain
    states: $states
    aggregateId: $aggregateId
  ) {
    eventId
    domain
    aggregateId
    version
    from
    to
    attempt
    at
  }
}
    `) as unknown as TypedDocumentString<ConsoleStateChangesSubscription, ConsoleStateChangesSubscriptionVariables>;
export const ConsoleDeadLettersDocument = new TypedDocumentString(`
    query ConsoleDeadLetters($domain: EventDomain!, $first: Int!, $after: String) {
  deadLetters(domain: $domain, first: $first, after: $after) {
    nodes {
      eventId
      domain
      aggregateId
      version
      status
      source
      relayAttempts
      replayCount
      lastErrorCode
      lastErrorSummary
      createdAt
    }
    endCursor
    hasNextPage
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeadLettersQuery, ConsoleDeadLettersQueryVariables>;
export const ConsoleReplayDeadLettersDocument = new TypedDocumentString(`
    mutation ConsoleReplayDeadLetters($filter: ReplayDeadLettersInput!) {
  replayDeadLetters(filter: $filter) {
    replayedCount
    eventIds
  }
}
    `) as unknown as TypedDocumentString<ConsoleReplayDeadLettersMutation, ConsoleReplayDeadLettersMutationVariables>;
export const ConsoleParkedEventsDocument = new TypedDocumentString(`
    query ConsoleParkedEvents($filter: ParkedEventFilter, $first: Int!) {
  parkedEvents(filter: $filter, first: $first) {
    eventId
    domain
    store
    shard
    aggregateId
    version
    attempts
    replayCount
    lastErrorCode
    lastErrorSummary
    parkedAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleParkedEventsQuery, ConsoleParkedEventsQueryVariables>;
export const ConsoleReplayParkedEventsDocument = new TypedDocumentString(`
    mutation ConsoleReplayParkedEvents($filter: ParkedEventFilter!, $limit: Int!) {
  replayParkedEvents(filter: $filter, limit: $limit) {
    count
    events {
      eventId
      domain
      aggregateId
      version
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleReplayParkedEventsMutation, ConsoleReplayParkedEventsMutationVariables>;
export const ConsoleReconcileDocument = new TypedDocumentString(`
    mutation ConsoleReconcile($scope: ReconciliationScopeInput!, $level: ReconciliationLevel!, $escalate: Boolean!) {
  reconcile(scope: $scope, level: $level, escalate: $escalate) {
    run {
      ...ConsoleRun
    }
    discrepancies {
      ...ConsoleDiscrepancy
    }
  }
}
    fragment ConsoleRun on ReconciliationRunView {
  id
  domain
  scopeKey
  levelRequested
  levelReached
  outcome
  note
  trigger
  attempts
  discrepanciesFound
  excludedChangedAfterSnapshot
  excludedInFlight
  bucketsCompared
  bucketsMismatched
  startedAt
  finishedAt
  durationMs
  errorCode
  errorSummary
  counts {
    segment
    source
    target
  }
}
fragment ConsoleDiscrepancy on DiscrepancyView {
  id
  domain
  scopeKey
  aggregateId
  kind
  status
  sourceVersion
  targetVersion
  differingFields
  resolution
  seenCount
  lastSeenAt
}`) as unknown as TypedDocumentString<ConsoleReconcileMutation, ConsoleReconcileMutationVariables>;
export const ConsoleReconciliationDocument = new TypedDocumentString(`
    query ConsoleReconciliation($filter: DiscrepancyFilterInput, $first: Int!) {
  discrepancies(filter: $filter, first: $first) {
    ...ConsoleDiscrepancy
  }
  repairs(first: 20) {
    ...ConsoleRepair
  }
  projectionRebuilds(first: 10) {
    ...ConsoleRebuild
  }
}
    fragment ConsoleDiscrepancy on DiscrepancyView {
  id
  domain
  scopeKey
  aggregateId
  kind
  status
  sourceVersion
  targetVersion
  differingFields
  resolution
  seenCount
  lastSeenAt
}
fragment ConsoleRepair on RepairView {
  id
  discrepancyId
  domain
  aggregateId
  action
  outcome
  outcomeNote
  verification
  verificationAttempts
  reason
  requestedBy
  eventId
  rebuildId
  createdAt
  verifiedAt
  errorCode
  errorSummary
}
fragment ConsoleRebuild on ProjectionRebuildView {
  id
  domain
  scopeKey
  phase
  status
  reason
  requestedBy
  sourceRows
  quarantined
  startedAt
  finishedAt
  errorCode
  errorSummary
}`) as unknown as TypedDocumentString<ConsoleReconciliationQuery, ConsoleReconciliationQueryVariables>;
export const ConsoleRepairDocument = new TypedDocumentString(`
    mutation ConsoleRepair($ids: [ID!]!) {
  repair(discrepancyIds: $ids) {
    ...ConsoleRepair
  }
}
    fragment ConsoleRepair on RepairView {
  id
  discrepancyId
  domain
  aggregateId
  action
  outcome
  outcomeNote
  verification
  verificationAttempts
  reason
  requestedBy
  eventId
  rebuildId
  createdAt
  verifiedAt
  errorCode
  errorSummary
}`) as unknown as TypedDocumentString<ConsoleRepairMutation, ConsoleRepairMutationVariables>;
export const ConsoleRemoveUnexpectedRowsDocument = new TypedDocumentString(`
    mutation ConsoleRemoveUnexpectedRows($ids: [ID!]!, $reason: String!) {
  removeUnexpectedRows(discrepancyIds: $ids, reason: $reason) {
    ...ConsoleRepair
  }
}
    fragment ConsoleRepair on RepairView {
  id
  discrepancyId
  domain
  aggregateId
  action
  outcome
  outcomeNote
  verification
  verificationAttempts
  reason
  requestedBy
  eventId
  rebuildId
  createdAt
  verifiedAt
  errorCode
  errorSummary
}`) as unknown as TypedDocumentString<ConsoleRemoveUnexpectedRowsMutation, ConsoleRemoveUnexpectedRowsMutationVariables>;
export const ConsoleRebuildProjectionDocument = new TypedDocumentString(`
    mutation ConsoleRebuildProjection($domain: EventDomain!, $scope: ReconciliationScopeInput!, $reason: String!) {
  rebuildProjection(domain: $domain, scope: $scope, reason: $reason) {
    ...ConsoleRebuild
  }
}
    fragment ConsoleRebuild on ProjectionRebuildView {
  id
  domain
  scopeKey
  phase
  status
  reason
  requestedBy
  sourceRows
  quarantined
  startedAt
  finishedAt
  errorCode
  errorSummary
}`) as unknown as TypedDocumentString<ConsoleRebuildProjectionMutation, ConsoleRebuildProjectionMutationVariables>;
export const ConsoleFitnessReportDocument = new TypedDocumentString(`
    query ConsoleFitnessReport($detectId: Int!, $projectId: Int!, $groupBy: FitnessReportGroupBy!) {
  fitnessReport(detectId: $detectId, projectId: $projectId, groupBy: $groupBy) {
    detectId
    projectId
    groupBy
    groups {
      key
      unit
      count
      min
      p50
      p90
      max
      average
    }
    suppressedGroups
    freshness {
      ...FreshnessBadge
    }
  }
}
    fragment FreshnessBadge on Freshness {
  status
  reason
  detail
  asOf
  lagMs
  pendingPublications
}`) as unknown as TypedDocumentString<ConsoleFitnessReportQuery, ConsoleFitnessReportQueryVariables>;
export const ConsoleOrderReportDocument = new TypedDocumentString(`
    query ConsoleOrderReport($from: DateTimeISO!, $to: DateTimeISO!, $groupBy: OrderReportGroupBy!) {
  orderReport(from: $from, to: $to, groupBy: $groupBy) {
    from
    to
    groupBy
    groups {
      key
      currency
      orderCount
      itemCount
      total
      averageTotal
    }
    suppressedGroups
    freshness {
      ...FreshnessBadge
    }
  }
}
    fragment FreshnessBadge on Freshness {
  status
  reason
  detail
  asOf
  lagMs
  pendingPublications
}`) as unknown as TypedDocumentString<ConsoleOrderReportQuery, ConsoleOrderReportQueryVariables>;
