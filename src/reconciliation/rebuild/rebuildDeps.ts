// What a projection rebuild is given (rebuildProjection.ts), and what the part after its swap and the
// recovery of a rebuild whose process died take of it (resumeAfterSwap.ts, recoverRebuilds.ts): one
// file both sides import, so neither imports the other.
import type { Knex } from 'knex';
import type { ErasedAggregates } from '../../domains/contract/erasure';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { ClickHouseLayout } from '../../infra/clickhouse/layout';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { CompareDeps, CompareResult } from '../compareScope';
import type { RebuildRecord } from '../ledger/records';
import type { SourceReader } from '../../domains/contract/sourceReader';
import type { TargetReader } from '../ports';
import type { RateLimiter } from '../repair/rateLimiter';
import type { Scope } from '../scope';

export interface RebuildDeps {
  ledger: Knex;
  ch: ClickHouseClient;
  database: string;
  layout: ClickHouseLayout;
  source: SourceReader;
  target: TargetReader;
  compare: Omit<CompareDeps, 'source' | 'target' | 'table' | 'beforeTargetScan'>;
  limiter: RateLimiter;
  /** The limiter's rate (REBUILD_ROWS_PER_SECOND), to tell an operator why a busy table cannot be caught up. */
  limitRowsPerSecond: number;
  /** Least time over which the catch-up judges the table's rate against that limit (default 10 s). */
  busyWindowMs?: number;
  clock: Clock;
  logger: Logger;
  catchUpMarginMs: number;
  staleAfterMs: number;
  insertBatchRows?: number;
  /** The erasure guard: the load never writes an erased aggregate into the shadow. Default: nothing erased. */
  erased?: ErasedAggregates;
  /** Reconciles the scope on the live table after the swap (a VERIFICATION run in the ledger). */
  verify(scope: Scope): Promise<Pick<CompareResult, 'outcome' | 'note'>>;
  /** Called once the rebuild ended (VERIFIED or FAILED), to settle the repairs that asked for it. */
  finished(record: RebuildRecord): Promise<void>;
}
