// The reconciliation ledger's retention loop (ledger/sql/pruneLedger.ts): every interval, finished
// runs, resolved discrepancies, settled repairs and finished rebuilds older than
// RECONCILIATION_LEDGER_RETENTION_DAYS are deleted in bounded batches. 0 days: kept for ever, no loop.
// Started by the reconciler role beside the scheduled reconciler. Safe in several processes at once:
// each batch skips rows another holds (SKIP LOCKED), and deleting twice deletes nothing.
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock';
import { repeatEvery, type Stoppable } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import { pruneLedger, type PruneReport } from '../ledger/sql/pruneLedger';

const DAY_MS = 24 * 3600_000;

export interface LedgerPruningDeps {
  pg: Knex;
  clock: Clock;
  logger: Logger;
  /** RECONCILIATION_LEDGER_RETENTION_DAYS (setting reconciliationLedgerRetentionDays); 0: keep. */
  retentionDays: number;
  /** Between passes (default one hour). */
  intervalMs?: number;
  batch?: number;
}

/** One pass: the cutoff from the injected clock; undefined when retention is off. */
export async function pruneLedgerOnce(
  d: Pick<LedgerPruningDeps, 'pg' | 'clock' | 'retentionDays' | 'batch'>,
): Promise<PruneReport | undefined> {
  if (d.retentionDays <= 0) return undefined;
  const cutoff = new Date(d.clock.now().getTime() - d.retentionDays * DAY_MS);
  return pruneLedger(d.pg, cutoff, { batch: d.batch });
}

export function startLedgerPruning(d: LedgerPruningDeps): Stoppable {
  if (d.retentionDays <= 0) return { stop: async () => undefined };
  return repeatEvery(
    d.intervalMs ?? 3600_000,
    async () => {
      const report = (await pruneLedgerOnce(d))!;
      const total = Object.values(report).reduce((a, b) => a + b, 0);
      if (total) d.logger.info({ pruned: report }, 'reconciliation ledger pruned');
    },
    (err) => d.logger.warn({ error: summarizeError(err) }, 'pruning the reconciliation ledger failed'),
  );
}
