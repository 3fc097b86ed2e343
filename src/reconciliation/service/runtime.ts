// The reconciliation service's state and its steps (../service.ts returns its methods): one abort
// signal and the set of promises still running, which stop() drains; the deps a rebuild, a recovery
// and a repair are given; and the waits after a repair or a rebuild. A small object rather than one
// long closure, so each step can be read on its own.
import type { ReconciliationDeps } from './deps';
import { sleep } from '../../shared/lifecycle';
import { summarizeError } from '../../shared/redact';
import { OperationTimeoutError, withTimeout } from '../../shared/timeout';
import { listRebuilds, listRepairs } from '../ledger/sql/ledgerQueries';
import type { RebuildRecord, RepairRecord } from '../ledger/records';
import { refreshLedgerGauges } from '../metrics';
import type { ReconcileLevel } from '../model';
import { startProjectionRebuild, type StartedRebuild } from '../rebuild/rebuildProjection';
import { recoverAbandonedRebuilds, type RecoveryDeps } from '../rebuild/recoverRebuilds';
import { settleRebuildRepairs } from '../rebuild/settleRebuildRepairs';
import type { RepairDeps } from '../repair/repairDeps';
import { verifyRepairs } from '../repair/verifyRepairs';
import type { Scope } from '../scope';
import { insertRebuildAudit } from './rebuildAudit';
import { reconcileRun, type RunRequest } from './reconcileRun';

export class ReconciliationRuntime {
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly d: ReconciliationDeps) {}

  /** Remembers `p` until it settles, so stop() waits for it. */
  track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p)).catch(() => undefined);
    return p;
  }

  refreshGauges = (): Promise<void> => refreshLedgerGauges(this.d.ledger, this.d.metrics);

  private refreshLater(): void {
    void this.refreshGauges().catch(() => undefined);
  }

  reconcile(scope: Scope, level: ReconcileLevel, o: RunRequest) {
    return reconcileRun(this.d, this.abort.signal, () => this.refreshLater(), scope, level, o);
  }

  // What a rebuild and the recovery of one whose process died share: the verification after the swap
  // and the settling of the repairs that asked for it.
  private rebuildCommon(): RecoveryDeps {
    const d = this.d;
    return {
      ledger: d.ledger,
      ch: d.ch,
      database: d.database,
      layout: d.layout,
      clock: d.clock,
      logger: d.logger,
      catchUpMarginMs: d.settings.rebuildCatchUpMarginMs,
      staleAfterMs: d.settings.rebuildStaleAfterMs,
      verify: async (s) => {
        const { run } = await this.reconcile(s, 'CONTENT', {
          trigger: 'VERIFICATION',
          requestedBy: 'rebuild-verification',
          escalate: false,
        });
        return { outcome: run.outcome ?? 'FAILED', note: run.note ?? '' };
      },
      finished: async (r) => {
        d.metrics.rebuilds.inc({ domain: r.domain, status: r.status });
        await settleRebuildRepairs(d.ledger, d.clock, d.metrics, r);
        this.refreshLater();
      },
      signal: this.abort.signal,
    };
  }

  recoverAbandoned = (): Promise<RebuildRecord[]> => this.track(recoverAbandonedRebuilds(this.rebuildCommon()));

  async startRebuild(scope: Scope, requestedBy: string, reason: string): Promise<StartedRebuild> {
    const d = this.d;
    // A rebuild whose process died is finished first; one that cannot be (a store down) stays RUNNING,
    // and this start is refused as a CONFLICT rather than run beside its tables.
    await this.recoverAbandoned().catch((err) => d.logger.warn({ error: summarizeError(err) }, 'recovering abandoned rebuilds failed'));
    const started = await startProjectionRebuild(
      {
        ...this.rebuildCommon(),
        source: d.sources[scope.domain],
        target: d.targets[scope.domain],
        compare: {
          pipeline: d.pipeline,
          clock: d.clock,
          retry: d.retry,
          settings: d.settings.compare[scope.domain],
          signal: this.abort.signal,
        },
        limiter: d.rebuildLimiter,
        limitRowsPerSecond: d.settings.rebuildRowsPerSecond,
        ...(d.erased ? { erased: d.erased } : {}),
      },
      scope,
      requestedBy,
      reason,
    );
    this.track(started.done);
    return started;
  }

  repairDeps(): RepairDeps {
    const d = this.d;
    return {
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
      rebuild: async (scope, by, reason) => (await this.startRebuild(scope, by, reason)).record.id,
      signal: this.abort.signal,
    };
  }

  private async waitForVerification(repairIds: number[]): Promise<void> {
    const deadline = this.d.clock.now().getTime() + this.d.settings.repairWaitMs;
    for (;;) {
      const left = repairIds.length ? await verifyRepairs(this.repairDeps(), repairIds) : 0;
      if (left === 0 || this.d.clock.now().getTime() >= deadline || this.abort.signal.aborted) return;
      await sleep(250, this.abort.signal);
    }
  }

  /** After repairs were sent: waits (bounded) for their verification and answers them as they stand. */
  async settled(stored: RepairRecord[]): Promise<RepairRecord[]> {
    await this.waitForVerification(stored.filter((r) => r.verification === 'PENDING').map((r) => r.id));
    this.refreshLater();
    return listRepairs(this.d.ledger, { ids: stored.map((r) => r.id), first: stored.length || 1 });
  }

  /** An operator's rebuild: started, audited, and waited for at most rebuildWaitMs. */
  async rebuild(scope: Scope, requestedBy: string, reason: string): Promise<RebuildRecord> {
    const started = await this.startRebuild(scope, requestedBy, reason);
    const audit = await insertRebuildAudit(this.d, scope, requestedBy, reason, started.record.id);
    // A rebuild still running is answered as it stands.
    const done = await withTimeout(started.done, this.d.settings.rebuildWaitMs, 'rebuild wait').catch((err: unknown) => {
      if (err instanceof OperationTimeoutError) return undefined;
      throw err;
    });
    // The rebuild may have ended before its audit row existed: settle the row from the rebuild's verdict.
    if (done) await verifyRepairs(this.repairDeps(), [audit.id]);
    return done ?? (await listRebuilds(this.d.ledger, { ids: [started.record.id], first: 1 }))[0]!;
  }

  /** Aborts what runs, waits for everything tracked, then closes the sink and the pipeline probe. */
  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
    await this.d.sink.close();
    await this.d.pipeline.close?.();
  }
}
