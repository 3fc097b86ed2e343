// What the reconciliation service is built from: its settings and its connections, readers and
// limiters. Apart from ../service.ts so the service's steps (runtime.ts, reconcileRun.ts) can name
// them without an import cycle.
import type { ErasedAggregates } from '../../domains/contract/erasure';
import type { Domain } from '../../publication/event';
import type { ProjectorDeadLetters } from '../../projections/deadLetterOperator';
import type { RetryPolicy } from '../../shared/backoff';
import type { Logger } from '../../shared/logger';
import type { CompareSettings } from '../compareScope';
import type { PipelineProbe } from '../ports';
import type { RateLimiter } from '../repair/rateLimiter';
import type { RepairDeps } from '../repair/repairDeps';

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
  /**
   * Erased aggregates (the projector's guard over erased_aggregates): expected absent in every
   * comparison, never repaired or rebuilt back. Default: none erased.
   */
  erased?: ErasedAggregates;
}
