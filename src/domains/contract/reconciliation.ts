// The reconciliation part of a domain module: everything the domain-neutral reconciliation engine,
// its schedule and the kafka-first publication reconciler need to know about one domain, so that
// none of them ever branches on a domain's name. A domain implements it in its own folder
// (src/domains/<d>/reconciliation) and is listed in src/domains/reconciledDomains.ts.
import type { Knex } from 'knex';
import type { MysqlShards } from '../../infra/mysql/fromMysql';
import type { DomainEvent } from '../../publication/event';
import type { EventSchemaVersions } from '../../publication/schemaVersions';
import type { ChangedScope, ScopeBase } from './scope';
import type { SourceReader } from './sourceReader';

/** The authoritative stores a domain's rows may live in (each part uses the one it needs). */
export interface DomainStores {
  mysql: Pick<MysqlShards, 'shards'>;
  pg: Knex;
  /**
   * The schema version a repair that publishes writes its events in (the process's gate: every live
   * reader reads it). A domain asks it for its own name; absent, version 1.
   */
  schemaVersions?: EventSchemaVersions;
}

/**
 * A filter on pending publication rows that selects the scope's events, on immutable event data:
 * data.<field> = value for each entry, and data.createdAt within [createdFrom, createdTo).
 */
export interface PendingFilter {
  dataEquals?: Readonly<Record<string, string | number>>;
  createdFrom?: Date;
  createdTo?: Date;
}

/** Where a scan for records without a publication row stands: (createdAt, aggregateId) keyset order. */
export interface ScanPosition {
  createdAt: Date;
  aggregateId: string;
}

/** A business record with no publication row: its position in the scan and the event it would publish. */
export interface Unpublished {
  position: ScanPosition;
  /**
   * The very event the direct path would have sent (same eventId and key), in the schema version the
   * scan was given (`schemaVersions`: what every live reader reads; version 1 without one).
   */
  event: DomainEvent;
}

/** The kafka-first strategy's facts about a domain: how to find business rows without a publication. */
export interface UnpublishedScan {
  /** Rows created on or before `cutoff`, after `after`, oldest first, at most `limit`. Read-only. */
  find(
    db: Knex | Knex.Transaction,
    o: { cutoff: Date; after: ScanPosition; limit: number; schemaVersions?: EventSchemaVersions },
  ): Promise<Unpublished[]>;
}

export interface ReconciledDomain<S extends ScopeBase = ScopeBase> {
  readonly domain: S['domain'];
  /** Stable name of a scope in the ledger (e.g. fitness:detect=10001). */
  scopeKey(scope: S): string;
  /** The JSON stored with a run or discrepancy (times as ISO strings); scopeFromJson reads it back. */
  scopeJson(scope: S): Record<string, unknown>;
  /** Validates a scope given as JSON (throws ValidationError). */
  scopeFromJson(json: Record<string, unknown>): S;
  /**
   * Whether a scope is of the kind that partitions the domain (whole campaigns, single UTC hours):
   * only those are registered for the schedule's rotation and count as its verification.
   */
  isRegisteredKind(scope: S): boolean;
  /** The scope's events among pending publication rows. */
  pendingFilter(scope: S): PendingFilter;
  /**
   * The scope as a ClickHouse condition on the projection table's immutable columns (values only
   * through infra/clickhouse/literal.ts; times from the exact *_ms columns).
   */
  targetWhere(scope: S): string;
  /** The reader of the domain's authoritative rows. */
  source(stores: DomainStores): SourceReader;
  /**
   * Registered scopes changed since `sinceMs`: those whose last change is at or before `quietBeforeMs`
   * (completed), and those still changing after it.
   */
  changedScopes(
    stores: DomainStores,
    w: { sinceMs: number; quietBeforeMs: number },
  ): Promise<{ completed: ChangedScope<S>[]; changing: S[] }>;
  /** Every registered scope the stores hold whose records stopped changing by `quietBeforeMs`. */
  registeredScopes(stores: DomainStores, w: { quietBeforeMs: number }): Promise<S[]>;
  /** The registered scopes holding a record whose latest change lies in [fromMs, toMs]. */
  scopesChangedIn(stores: DomainStores, fromMs: number, toMs: number): Promise<S[]>;
  /** Present when the domain can run the kafka-first strategy (its rows need no publication row). */
  unpublished?: UnpublishedScan;
}

/** The scope type of a reconciled domain. */
export type ScopeOf<P> = P extends ReconciledDomain<infer S> ? S : never;
