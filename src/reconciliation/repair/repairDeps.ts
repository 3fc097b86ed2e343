// What repairs need, and the small helpers every repair path shares (the audit row of a discrepancy,
// the action a kind gets, grouping by scope).
import type { Knex } from 'knex';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { Domain } from '../../publication/event';
import type { Clock } from '../../shared/clock';
import type { NewRepair } from '../ledger/sql/repairRows';
import type { DiscrepancyRecord, RepairAction } from '../ledger/records';
import type { ReconciliationMetrics } from '../metrics';
import type { ClickHouseLayout } from '../../infra/clickhouse/layout';
import type { SourceReader } from '../../domains/contract/sourceReader';
import type { TargetReader } from '../ports';
import type { Scope } from '../scope';
import type { RateLimiter } from './rateLimiter';
import type { RepairSink } from './repairSink';
import type { ErasedAggregates } from '../../domains/contract/erasure';

export interface RepairDeps {
  ledger: Knex;
  ch: ClickHouseClient;
  database: string;
  layout: ClickHouseLayout;
  sources: Record<Domain, SourceReader>;
  targets: Record<Domain, TargetReader>;
  sink: RepairSink;
  limiter: RateLimiter;
  clock: Clock;
  metrics: ReconciliationMetrics;
  verifyTimeoutMs: number;
  /** Starts a rebuild of a scope for content mismatches; resolves with its id, or throws (e.g. CONFLICT). */
  rebuild(scope: Scope, requestedBy: string, reason: string): Promise<number>;
  signal?: AbortSignal;
  /** Erased aggregates: their discrepancies are resolved ERASED, never replayed or tombstoned. Default: none. */
  erased?: ErasedAggregates;
}

export function repairOfDiscrepancy(
  d: DiscrepancyRecord,
  requestedBy: string,
): Omit<NewRepair, 'action' | 'outcome' | 'outcomeNote' | 'verification'> {
  return {
    discrepancyId: d.id,
    domain: d.domain,
    scopeKey: d.scopeKey,
    scope: d.scope,
    reason: `discrepancy ${d.kind}`,
    aggregateId: d.aggregateId,
    sourceVersion: d.sourceVersion,
    targetVersion: d.targetVersion,
    eventId: null,
    rebuildId: null,
    requestedBy,
  };
}

/** The repair action a kind gets (for audit rows of repairs that were refused or failed early). */
export function actionFor(kind: DiscrepancyRecord['kind']): RepairAction {
  return kind === 'CONTENT_MISMATCH'
    ? 'REBUILD'
    : kind === 'UNEXPECTED_ROW'
      ? 'INVESTIGATE'
      : kind === 'DELETION_NOT_APPLIED'
        ? 'TOMBSTONE'
        : 'REPLAY';
}

export function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const i of items) m.set(key(i), [...(m.get(key(i)) ?? []), i]);
  return m;
}
