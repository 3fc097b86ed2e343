// Composition of the reconciliation service from the process's shared resources (no connection of
// its own besides the repair producer, which it closes on stop), and the reconciler role starter.
import { clickhouseLayout } from '../../infra/clickhouse/layout';
import type { Registry } from 'prom-client';
import type { RoleStarter } from '../roles';
import type { Resources } from '../resources';
import type { Settings } from '../../config/settings';
import { reconciledDomains, sourcesOf } from '../../domains/reconciledDomains';
import { domainModules } from '../../domains/registry';
import { strategyOf, type DomainModule } from '../../domains/contract/domainModule';
import type { Domain } from '../../publication/event';
import type { EventSchemaVersions } from '../../publication/schemaVersions';
import { freshnessInputsFrom } from './freshness';
import { projectorGroupId } from '../../projections/projectorGroup';
import { projectorDeadLetters } from '../../projections/deadLetterOperator';
import { mapMessageReading, type MessageMapper } from '../../projections/mapMessage';
import { readerVersions } from '../../projections/readerVersions';
import { exponentialBackoff } from '../../shared/backoff';
import { systemClock, type Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import type { CompareSettings } from '../../reconciliation/compareScope';
import { reconciliationMetrics } from '../../reconciliation/metrics';
import type { TargetReader } from '../../reconciliation/ports';
import { fromFreshnessSources } from '../../reconciliation/pipeline/pipelineProbe';
import { tokenBucket, type RateLimiter } from '../../reconciliation/repair/rateLimiter';
import { fromKafkaRepairSink } from '../../reconciliation/repair/repairSink';
import { startScheduledReconciler } from '../../reconciliation/schedule/scheduledReconciler';
import { startLedgerPruning } from '../../reconciliation/schedule/ledgerPruning';
import { erasedGuardFrom } from './erasedGuard';
import { createReconciliationService, type ReconciliationService } from '../../reconciliation/service';
import { clickhouseTarget } from '../../reconciliation/target/clickhouseTarget';

export function compareSettingsOf(s: Settings): Record<Domain, CompareSettings> {
  const base: CompareSettings = {
    maxAttempts: s.reconcileMaxAttempts,
    graceMs: s.reconcileGraceMs,
    directCompareMax: s.reconcileDirectCompareMax,
    bucketCount: s.reconcileBucketCount,
    catchUpWaitMs: s.reconcileCatchUpWaitMs,
  };
  // A kafka-first record whose direct publish and fallback write both failed has no publication row
  // until the publication reconciler rebuilds it (after its grace, on its next pass): that is delay too.
  const unpublishedGraceMs = s.reconcileGraceMs + s.publicationReconcilerGraceMs + s.publicationReconcilerIntervalMs;
  return Object.fromEntries(
    domainModules().map((m) => [m.name, mayLackPublication(s, m) ? { ...base, graceMs: unpublishedGraceMs } : base]),
  );
}

/** Whether a domain's records may lack a publication row for a while (kafka-first, rebuilt by its scan). */
function mayLackPublication(s: Settings, m: DomainModule): boolean {
  return m.reconciliation.unpublished !== undefined && strategyOf(s, m) === 'kafka-first';
}

/** How much longer the schedule waits before it reconciles such a domain's changed scopes. */
function extraQuietMsOf(s: Settings): Partial<Record<Domain, number>> {
  const compare = compareSettingsOf(s);
  return Object.fromEntries(domainModules().flatMap((m) => (mayLackPublication(s, m) ? [[m.name, compare[m.name]!.graceMs]] : [])));
}

export interface ReconciliationWiring {
  clock?: Clock;
  repairLimiter?: RateLimiter;
  rebuildLimiter?: RateLimiter;
  /** The mapping projector dead letters are replayed through (default: the projector's own). */
  map?: MessageMapper;
  /** The version repairs publish events in (the process's gate); default 1, what every reader reads. */
  schemaVersions?: EventSchemaVersions;
}

export function reconciliationFrom(r: Resources, o: { registry: Registry; logger: Logger } & ReconciliationWiring): ReconciliationService {
  const s = r.settings;
  const clock = o.clock ?? systemClock;
  const logger = o.logger.child({ component: 'reconciliation' });
  const onError = (store: string, err: unknown) => logger.warn({ store, error: summarizeError(err) }, 'pipeline input unavailable');
  // Erased aggregates are expected-absent and never written back by a repair, replay or rebuild (docs/erasure.md).
  const erased = erasedGuardFrom(r, clock);
  return createReconciliationService({
    erased,
    ledger: r.pg,
    ch: r.clickhouse,
    database: s.clickhouseDatabase,
    layout: clickhouseLayout(s),
    sources: sourcesOf({ mysql: r.mysql, pg: r.pg, ...(o.schemaVersions ? { schemaVersions: o.schemaVersions } : {}) }),
    targets: Object.fromEntries(
      reconciledDomains().map((d) => [d.domain, clickhouseTarget(r.clickhouse, s.clickhouseDatabase, d.domain)]),
    ) as Record<Domain, TargetReader>,
    // A comparison's verdict waits for these, so they get longer than a read's freshness marker.
    pipeline: fromFreshnessSources({ ...freshnessInputsFrom(r, { onError, timeoutMs: 10000 }), clock }),
    sink: fromKafkaRepairSink(r.kafka, r.topics),
    repairLimiter: o.repairLimiter ?? tokenBucket({ perSecond: s.repairEventsPerSecond, clock }),
    rebuildLimiter: o.rebuildLimiter ?? tokenBucket({ perSecond: s.rebuildRowsPerSecond, clock }),
    retry: exponentialBackoff({ baseMs: s.reconcileRetryBaseMs, maxMs: s.reconcileRetryMaxMs, maxAttempts: s.reconcileMaxAttempts }),
    clock,
    logger,
    metrics: reconciliationMetrics(o.registry),
    projectorDeadLetters: projectorDeadLetters({
      ch: r.clickhouse,
      database: s.clickhouseDatabase,
      consumer: projectorGroupId(s),
      clock,
      // The projector's own reading (EVENT_SCHEMA_VERSION_CAP included): a parked newer event replays once this deploy knows it.
      map: o.map ?? mapMessageReading(readerVersions(s)),
      registry: o.registry,
      erased,
    }),
    settings: {
      compare: compareSettingsOf(s),
      repairVerifyTimeoutMs: s.repairVerifyTimeoutMs,
      repairWaitMs: s.repairWaitMs,
      rebuildWaitMs: s.rebuildWaitMs,
      rebuildCatchUpMarginMs: s.rebuildCatchUpMarginMs,
      rebuildRowsPerSecond: s.rebuildRowsPerSecond,
      rebuildStaleAfterMs: s.rebuildStaleAfterMs,
    },
  });
}

/** The `reconciler` role: scheduled reconciliation of recently completed scopes. */
export const startScheduledReconciliationRole: RoleStarter = async ({ resources: r, logger, instanceId, reconciliation }) => {
  const s = r.settings;
  const service = reconciliation();
  const pruning = startLedgerPruning({
    pg: r.pg,
    clock: systemClock,
    logger: logger.child({ component: 'ledger-pruning' }),
    retentionDays: s.reconciliationLedgerRetentionDays,
  });
  const scheduled = startScheduledReconciler({
    service,
    mysql: r.mysql,
    pg: r.pg,
    clock: systemClock,
    logger: logger.child({ component: 'scheduled-reconciliation' }),
    instanceId,
    intervalMs: s.reconcileIntervalMs,
    window: {
      quietMs: s.reconcileQuietMs,
      lookbackMs: s.reconcileLookbackMs,
      extraQuietMs: extraQuietMsOf(s),
      limit: s.reconcileScopesPerPass,
    },
    rotation: { periodMs: s.reconcileRotationPeriodMs, rowsPerHour: s.reconcileRotationRowsPerHour },
    expired: { ch: r.clickhouse, database: s.clickhouseDatabase, consumer: projectorGroupId(s), pollMs: s.reconcileExpiredPollMs },
  });
  return {
    async stop() {
      await scheduled.stop();
      await pruning.stop();
    },
  };
};
