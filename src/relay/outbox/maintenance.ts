// Per-store outbox housekeeping next to the relay: refreshes the gauges (rows per status, oldest
// unsent age: publication/outbox/outboxGauges.ts, the table owner's stats) and deletes SENT rows past
// retention in bounded batches (the owner's deleteSent statement, run by the relay's retention
// runner). Every relay process runs it; the work is idempotent and cheap, so several processes doing
// it at once is harmless.
import { repeatEvery, type Stoppable } from '../../shared/lifecycle';
import { runRetentionTask } from '../retention/retentionCleanup';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import type { PublicationStore } from '../../publication/stores';
import { storeLabels, type OutboxMetrics } from '../../publication/outbox/metrics';
import { refreshOutboxGauges } from '../../publication/outbox/outboxGauges';
import { deleteSentBatch } from '../../publication/outbox/sql/deleteSent';

export interface OutboxMaintenanceOptions {
  store: PublicationStore;
  metrics: OutboxMetrics;
  logger: Logger;
  retentionMs: number;
  cleanupIntervalMs: number;
  cleanupBatchSize: number;
  statsIntervalMs: number;
}

/** Deletes expired SENT rows batch by batch until none are left; returns how many. */
export async function cleanupSent(
  o: Pick<OutboxMaintenanceOptions, 'store' | 'metrics' | 'retentionMs' | 'cleanupBatchSize'>,
  signal?: AbortSignal,
): Promise<number> {
  const n = await runRetentionTask((size) => deleteSentBatch(o.store.db, o.retentionMs, size), o.cleanupBatchSize, signal);
  if (n) o.metrics.cleanedUp.inc(storeLabels(o.store), n);
  return n;
}

export function startOutboxMaintenance(o: OutboxMaintenanceOptions): Stoppable {
  const abort = new AbortController();
  const labels = storeLabels(o.store);
  const warn = (what: string) => (err: unknown) =>
    o.logger.warn({ ...labels, error: summarizeError(err) }, `outbox ${what} failed; will retry`);
  const loops = [
    repeatEvery(o.statsIntervalMs, () => refreshOutboxGauges(o), warn('gauges')),
    repeatEvery(o.cleanupIntervalMs, () => cleanupSent(o, abort.signal), warn('cleanup')),
  ];
  return {
    async stop() {
      abort.abort();
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
