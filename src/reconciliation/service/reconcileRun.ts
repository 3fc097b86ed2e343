// One reconciliation run, recorded: the ledger's run row first, the comparison at one source snapshot
// (the quarantine swept before each target scan), then the result or the failure on that row, with the
// run metrics. Split from the service (../service.ts) so its steps read in the order they happen.
import type { Knex } from 'knex';
import type { Domain } from '../../publication/event';
import type { SourceReader } from '../../domains/contract/sourceReader';
import type { RetryPolicy } from '../../shared/backoff';
import type { Clock } from '../../shared/clock';
import { toTidemarkError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import type { CompareSettings } from '../compareScope';
import { insertRun } from '../ledger/sql/insertRun';
import { runById } from '../ledger/sql/ledgerQueries';
import { failRun, recordRunResult } from '../ledger/sql/recordRunResult';
import type { DiscrepancyRecord, RunRecord } from '../ledger/records';
import type { ReconciliationMetrics } from '../metrics';
import type { ReconcileLevel, RunTrigger } from '../model';
import type { PipelineProbe, TargetReader } from '../ports';
import { sweepQuarantine, type SweepDeps } from '../rebuild/quarantineSweep';
import { compareSnapshot } from '../snapshot/compareSnapshot';
import { scopeKey, type Scope } from '../scope';
import type { ErasedAggregates } from '../../domains/contract/erasure';

/** What a run reads and writes (the service's deps fit it as they are). */
export interface RunDeps extends SweepDeps {
  ledger: Knex;
  sources: Record<Domain, SourceReader>;
  targets: Record<Domain, TargetReader>;
  pipeline: PipelineProbe;
  clock: Clock;
  retry: RetryPolicy;
  logger: Logger;
  metrics: ReconciliationMetrics;
  settings: { compare: Record<Domain, CompareSettings> };
  erased?: ErasedAggregates;
}

export interface RunRequest {
  escalate?: boolean;
  trigger?: RunTrigger;
  requestedBy: string;
}

/** Runs and records one reconciliation; `recorded` runs after the result is stored (gauges). */
export async function reconcileRun(
  d: RunDeps,
  signal: AbortSignal,
  recorded: () => void,
  scope: Scope,
  level: ReconcileLevel,
  o: RunRequest,
): Promise<{ run: RunRecord; discrepancies: DiscrepancyRecord[] }> {
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
        beforeTargetScan: async () => void (await sweepQuarantine(sweepDepsOf(d), scope)),
        signal,
        erased: d.erased,
      },
      scope,
      level,
      o.escalate ?? true,
    );
    const finished = d.clock.now();
    const discrepancies = await recordRunResult(d.ledger, runId, scope, result, finished, finished.getTime() - started.getTime());
    d.metrics.runs.inc({ domain: scope.domain, trigger, outcome: result.outcome });
    recorded();
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

/** Only what the quarantine sweep uses, not the whole deps object. */
function sweepDepsOf(d: RunDeps): SweepDeps {
  return { ledger: d.ledger, ch: d.ch, database: d.database, layout: d.layout, clock: d.clock, logger: d.logger, metrics: d.metrics };
}
