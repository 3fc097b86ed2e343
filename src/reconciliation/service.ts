// The reconciliation service: what operators (GraphQL) and the scheduled reconciler call. It wires
// the engine (snapshot/compareSnapshot), the ledger, repairs and rebuilds together; every long-running piece it
// starts (a rebuild in the background) is tracked and drained by stop().
import type { Domain } from '../publication/event';
import type { RetryPolicy } from '../shared/backoff';
import { TidemarkError, toTidemarkError } from '../shared/errors';
import { sleep } from '../shared/lifecycle';
import type { Logger } from '../shared/logger';
import { summarizeError } from '../shared/redact';
import type { CompareSettings } from './compareScope';
import { compareSnapshot } from './snapshot/compareSnapshot';
import { insertRun } from './ledger/sql/insertRun';
import { listDiscrepancies, listRebuilds, listRepairs, listRuns, runById } from './ledger/sql/ledgerQueries';
import type { DiscrepancyFilter, RepairFilter, RunFilter } from './ledger/sql/ledgerQueries';
import { failRun, recordRunResult } from './ledger/sql/recordRunResult';
import { insertRepairs } from './ledger/sql/repairRows';
import type { DiscrepancyRecord, RebuildRecord, RepairRecord, RunRecord } from './ledger/records';
import { refreshLedgerGauges } from './metrics';
import type { ReconcileLevel, RunTrigger } from './model';
import type { PipelineProbe } from './ports';
import { sweepQuarantine } from './rebuild/quarantineSweep';
import { startProjectionRebuild, type StartedRebuild } from './rebuild/rebuildProjection';
import { recoverAbandonedRebuilds, type RecoveryDeps } from './rebuild/recoverRebuilds';
import { settleRebuildRepairs } from './rebuild/settleRebuildRepairs';
import type { RateLimiter } from './repair/rateLimiter';
import { removeUnexpectedRows } from './repair/removeUnexpectedRows';
import { repairDiscrepancies } from './repair/repairDiscrepancies';
import type { RepairDeps } from './repair/repairDeps';
import { verifyRepairs } from './repair/verifyRepairs';
import { scopeJson, scopeKey, type Scope } from './scope';
import type { ProjectorDeadLetters } from '../projections/deadLetterOperator';
import { OperationTimeoutError, withTimeout } from '../shared/timeout';

export interface ReconciliationSettings {
  compare: Record<Domain, CompareSettings>;
  repairVerifyTimeoutMs: number;
  repairWaitMs: number;
  rebuildWaitMs: number;
  rebuildCatchUpMarginMs: number;
  /** REBUILD_ROWS_PER_SECOND: what rebuildLimiter grants, named when a table is too busy to catch up. */
  rebuildRowsPerSecond: number;
  rebuildStaleAfterMs: number;
}

/** The repair machinery's connections and readers, plus what reconciling itself needs. */
export interface ReconciliationDeps extends Pick<
  RepairDeps,
  'ledger' | 'ch' | 'database' | 'layout' | 'sources' | 'targets' | 'sink' | 'clock' | 'metrics'
> {
  pipeline: PipelineProbe;
  repairLimiter: RateLimiter;
  rebuildLimiter: RateLimiter;
  retry: RetryPolicy;
  logger: Logger;
  settings: ReconciliationSettings;
  projectorDeadLetters: ProjectorDeadLetters;
}

export interface ReconcileOutcome {
  run: RunRecord;
  discrepancies: DiscrepancyRecord[];
}

export interface ReconciliationService {
  reconcile(
    scope: Scope,
    level: ReconcileLevel,
    o: { escalate?: boolean; trigger?: RunTrigger; requestedBy: string },
  ): Promise<ReconcileOutcome>;
  discrepancies(filter: DiscrepancyFilter): Promise<DiscrepancyRecord[]>;
  repair(discrepancyIds: number[], requestedBy: string): Promise<RepairRecord[]>;
  removeUnexpectedRows(discrepancyIds: number[], reason: string, requestedBy: string): Promise<RepairRecord[]>;
  rebuild(scope: Scope, requestedBy: string, reason: string): Promise<RebuildRecord>;
  /** Finishes rebuilds whose process stopped heart-beating: rolled back before the swap, resumed after it. */
  recoverAbandonedRebuilds(): Promise<RebuildRecord[]>;
  repairs(filter: RepairFilter): Promise<RepairRecord[]>;
  rebuilds(filter: { domain?: Domain; ids?: number[]; first: number; beforeId?: number }): Promise<RebuildRecord[]>;
  runs(filter: RunFilter): Promise<RunRecord[]>;
  /** Verifies pending repairs; returns how many are still pending. */
  verifyPending(repairIds?: number[]): Promise<number>;
  refreshGauges(): Promise<void>;
  /** The projector's dead letters: listed for operators and replayed through the current mapping. */
  readonly projectorDeadLetters: ProjectorDeadLetters;
  stop(): Promise<void>;
}

export function createReconciliationService(d: ReconciliationDeps): ReconciliationService {
  const abort = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };

  const sweepDeps = {
    ledger: d.ledger,
    ch: d.ch,
    database: d.database,
    layout: d.layout,
    clock: d.clock,
    logger: d.logger,
    metrics: d.metrics,
  };

  async function reconcile(
    scope: Scope,
    level: ReconcileLevel,
    o: { escalate?: boolean; trigger?: RunTrigger; requestedBy: string },
  ): Promise<ReconcileOutcome> {
    const trigger = o.trigger ?? 'OPERATOR';
    const started = d.clock.now();
    const runId = await insertRun(d.ledger, scope, level, trigger, o.requestedBy, started);
    const timer = d.metrics.runSeconds.startTimer({ domain: scope.domain });
    try {
      // Judged at one source snapshot, so a scope edited meanwhile still gets a verdict.
      const result = await compareSnapshot(
        {
          source: d.sources[scope.domain],
          target: d.targets[scope.domain],
          pipeline: d.pipeline,
          clock: d.clock,
          retry: d.retry,
          settings: d.settings.compare[scope.domain],
          beforeTargetScan: async () => void (await sweepQuarantine(sweepDeps, scope)),
          signal: abort.signal,
        },
        scope,
        level,
        o.escalate ?? true,
      );
      const finished = d.clock.now();
      const discrepancies = await recordRunResult(d.ledger, runId, scope, result, finished, finished.getTime() - started.getTime());
      d.metrics.runs.inc({ domain: scope.domain, trigger, outcome: result.outcome });
      void refreshGauges().catch(() => undefined);
      return { run: (await runById(d.ledger, runId))!, discrepancies };
    } catch (err) {
      const safe = summarizeError(err);
      const finished = d.clock.now();
      await failRun(d.ledger, runId, safe.code, safe.summary, finished, finished.getTime() - started.getTime()).catch(() => undefined);
      d.metrics.runs.inc({ domain: scope.domain, trigger, outcome: 'FAILED' });
      d.logger.error({ err, scope: scopeKey(scope) }, 'reconciliation failed');
      throw toTidemarkError(err, 'reconciliation stores');
    } finally {
      timer();
    }
  }

  // What a rebuild and the recovery of one whose process died share: the verification after the swap
  // and the settling of the repairs that asked for it.
  const rebuildCommon = (): RecoveryDeps => ({
    ledger: d.ledger,
    ch: d.ch,
    database: d.database,
    layout: d.layout,
    clock: d.clock,
    logger: d.logger,
    catchUpMarginMs: d.settings.rebuildCatchUpMarginMs,
    staleAfterMs: d.settings.rebuildStaleAfterMs,
    verify: async (s) => {
      const { run } = await reconcile(s, 'CONTENT', { trigger: 'VERIFICATION', requestedBy: 'rebuild-verification', escalate: false });
      return { outcome: run.outcome ?? 'FAILED', note: run.note ?? '' };
    },
    finished: async (r) => {
      d.metrics.rebuilds.inc({ domain: r.domain, status: r.status });
      await settleRebuildRepairs(d.ledger, d.clock, d.metrics, r);
      void refreshGauges().catch(() => undefined);
    },
    signal: abort.signal,
  });

  const recoverAbandoned = () => track(recoverAbandonedRebuilds(rebuildCommon()));

  async function startRebuild(scope: Scope, requestedBy: string, reason: string): Promise<StartedRebuild> {
    // A rebuild whose process died is finished first; one that cannot be (a store down) stays RUNNING,
    // and this start is refused as a CONFLICT rather than run beside its tables.
    await recoverAbandoned().catch((err) => d.logger.warn({ error: summarizeError(err) }, 'recovering abandoned rebuilds failed'));
    const started = await startProjectionRebuild(
      {
        ...rebuildCommon(),
        source: d.sources[scope.domain],
        target: d.targets[scope.domain],
        compare: { pipeline: d.pipeline, clock: d.clock, retry: d.retry, settings: d.settings.compare[scope.domain], signal: abort.signal },
        limiter: d.rebuildLimiter,
        limitRowsPerSecond: d.settings.rebuildRowsPerSecond,
      },
      scope,
      requestedBy,
      reason,
    );
    track(started.done);
    return started;
  }

  const repairDeps = (): RepairDeps => ({
    ledger: d.ledger,
    ch: d.ch,
    database: d.database,
    layout: d.layout,
    sources: d.sources,
    targets: d.targets,
    sink: d.sink,
    limiter: d.repairLimiter,
    clock: d.clock,
    metrics: d.metrics,
    verifyTimeoutMs: d.settings.repairVerifyTimeoutMs,
    rebuild: async (scope, by, reason) => (await startRebuild(scope, by, reason)).record.id,
    signal: abort.signal,
  });

  async function waitForVerification(repairIds: number[]): Promise<void> {
    const deadline = d.clock.now().getTime() + d.settings.repairWaitMs;
    for (;;) {
      const left = repairIds.length ? await verifyRepairs(repairDeps(), repairIds) : 0;
      if (left === 0 || d.clock.now().getTime() >= deadline || abort.signal.aborted) return;
      await sleep(250, abort.signal);
    }
  }

  const refreshGauges = () => refreshLedgerGauges(d.ledger, d.metrics);

  return {
    reconcile: (scope, level, o) => track(reconcile(scope, level, o)),
    discrepancies: (f) => listDiscrepancies(d.ledger, f),
    async repair(ids, requestedBy) {
      if (ids.length === 0) return [];
      const stored = await track(repairDiscrepancies(repairDeps(), ids, requestedBy));
      await waitForVerification(stored.filter((r) => r.verification === 'PENDING').map((r) => r.id));
      void refreshGauges().catch(() => undefined);
      return listRepairs(d.ledger, { ids: stored.map((r) => r.id), first: stored.length || 1 });
    },
    async removeUnexpectedRows(ids, reason, requestedBy) {
      if (!reason.trim()) throw new TidemarkError('VALIDATION_FAILED', 'a reason is required', { details: { field: 'reason' } });
      const stored = await track(removeUnexpectedRows(repairDeps(), ids, reason, requestedBy));
      await waitForVerification(stored.filter((r) => r.verification === 'PENDING').map((r) => r.id));
      void refreshGauges().catch(() => undefined);
      return listRepairs(d.ledger, { ids: stored.map((r) => r.id), first: stored.length || 1 });
    },
    async rebuild(scope, requestedBy, reason) {
      const started = await startRebuild(scope, requestedBy, reason);
      const [audit] = await insertRepairs(
        d.ledger,
        [
          {
            discrepancyId: null,
            domain: scope.domain,
            scopeKey: scopeKey(scope),
            scope: scopeJson(scope),
            action: 'REBUILD',
            reason: `operator: ${reason}`,
            aggregateId: null,
            sourceVersion: null,
            targetVersion: null,
            eventId: null,
            rebuildId: started.record.id,
            requestedBy,
            outcome: 'SENT',
            outcomeNote: `rebuild ${started.record.id} started`,
            verification: 'PENDING',
          },
        ],
        d.clock.now(),
      );
      // Waits at most rebuildWaitMs; a rebuild still running is answered as it stands.
      const done = await withTimeout(started.done, d.settings.rebuildWaitMs, 'rebuild wait').catch((err: unknown) => {
        if (err instanceof OperationTimeoutError) return undefined;
        throw err;
      });
      // The rebuild may have ended before its audit row existed: settle the row from the rebuild's verdict.
      if (done) await verifyRepairs(repairDeps(), [audit!.id]);
      return done ?? (await listRebuilds(d.ledger, { ids: [started.record.id], first: 1 }))[0]!;
    },
    recoverAbandonedRebuilds: recoverAbandoned,
    repairs: (f) => listRepairs(d.ledger, f),
    rebuilds: (f) => listRebuilds(d.ledger, f),
    runs: (f) => listRuns(d.ledger, f),
    verifyPending: (ids) => track(verifyRepairs(repairDeps(), ids)),
    refreshGauges,
    projectorDeadLetters: d.projectorDeadLetters,
    async stop() {
      abort.abort();
      await Promise.allSettled([...inFlight]);
      await d.sink.close();
      await d.pipeline.close?.();
    },
  };
}
