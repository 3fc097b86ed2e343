// The catch-up of a rebuild's shadow before the swap. While a rebuild runs, the projector keeps applying
// the scope's new results and corrections to the live table through its own mapping; each catch-up
// copies the rows that reached the live table since the rebuild began (minus the clock margin) into the
// shadow: idempotent by version (copyLateRows skips scope versions the shadow already holds, and the
// ReplacingMergeTree keeps the latest of the rest). So a write made at any moment before the swap is in
// the shadow, and the swap's own CATCH_UP phase copies what arrived after the last round.
// Bounded like repairs: each round first pays the rebuild's rate limit (REBUILD_ROWS_PER_SECOND) for the
// rows that arrived since the previous round. A table that gains rows faster than that limit, measured
// over at least `busyWindowMs`, can never be caught up at that rate: the rebuild stops with
// SCOPE_TOO_BUSY and both rates (the table's and the scope's), rather than lagging without end.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { Clock } from '../../shared/clock';
import type { RateLimiter } from '../repair/rateLimiter';
import type { Scope } from '../scope';
import type { ProjectionMapping } from '../target/projectionMapping';
import { rebuildStopped } from './rebuildStopped';
import { copyLateRows } from './sql/copyRows';
import { rowsIngestedSince } from './sql/rowsIngestedSince';

export interface CatchUpReport {
  rounds: number;
  /** Rows that reached the live table during the rebuild (all scopes), and those of the rebuilt scope. */
  tableRows: number;
  scopeRows: number;
  /** Rows per second over the rebuild so far, and the rate the catch-up may apply. */
  tableRowsPerSecond: number;
  scopeRowsPerSecond: number;
  limitRowsPerSecond: number;
}

export interface ShadowCatchUp {
  /** One round: pays for the new rows, copies; throws SCOPE_TOO_BUSY when the rate cannot keep up. */
  round(): Promise<void>;
  /** When the last round started (rows ingested before it, minus the margin, are in the shadow). */
  lastRoundMs(): number;
  report(): CatchUpReport;
}

const perSecond = (rows: number, ms: number) => Math.round((rows * 1000) / Math.max(1, ms));

export function shadowCatchUp(o: {
  ch: ClickHouseClient;
  database: string;
  live: string;
  shadow: string;
  mapping: ProjectionMapping;
  scope: Scope;
  limiter: RateLimiter;
  limitRowsPerSecond: number;
  clock: Clock;
  /** When the rebuild started copying (rows ingested from then on are the catch-up's). */
  startedMs: number;
  marginMs: number;
  /** The least time over which a rate is judged (a burst is not a trend). */
  busyWindowMs: number;
  signal?: AbortSignal;
}): ShadowCatchUp {
  const now = () => o.clock.now().getTime();
  let rounds = 0;
  let paidUntilMs = o.startedMs;
  let lastMs = o.startedMs;
  let arrived = { total: 0, inScope: 0, newer: 0 };
  const report = (): CatchUpReport => {
    const ms = Math.max(1, lastMs - o.startedMs);
    return {
      rounds,
      tableRows: arrived.total,
      scopeRows: arrived.inScope,
      tableRowsPerSecond: perSecond(arrived.total, ms),
      scopeRowsPerSecond: perSecond(arrived.inScope, ms),
      limitRowsPerSecond: o.limitRowsPerSecond,
    };
  };
  return {
    async round() {
      const at = now();
      arrived = await rowsIngestedSince(o.ch, o.database, o.live, o.mapping, o.scope, o.startedMs, paidUntilMs);
      lastMs = at;
      const r = report();
      if (at - o.startedMs >= o.busyWindowMs && r.tableRowsPerSecond > o.limitRowsPerSecond)
        throw rebuildStopped(
          'SCOPE_TOO_BUSY',
          `the table changed at ${r.tableRowsPerSecond} rows/s during the rebuild (the scope at ${r.scopeRowsPerSecond} rows/s); ` +
            `its catch-up applies at most ${r.limitRowsPerSecond} rows/s (REBUILD_ROWS_PER_SECOND)`,
        );
      // Pay for what arrived since the previous round (the margin's re-copies are free: idempotent).
      if (arrived.newer > 0) await o.limiter.acquire(arrived.newer, o.signal);
      paidUntilMs = at;
      await copyLateRows(o.ch, o.database, o.live, o.shadow, o.mapping, o.scope, o.startedMs - o.marginMs);
      rounds++;
    },
    lastRoundMs: () => lastMs,
    report,
  };
}
