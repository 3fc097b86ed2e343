// Retention housekeeping beside the relays: rows whose job is done are deleted after their retention,
// in bounded batches, so no table grows forever:
//   - PUBLISHED event_publications rows (fallback rows the kafka-first relay has since delivered), on
//     every store that has the table (PostgreSQL and each fitness shard);
//   - fitness idempotency keys (and the first response each one replays), on every fitness shard.
// Outbox SENT rows have their own cleanup in the outbox maintenance loop. Every relay process runs
// this; the deletes are idempotent and take only rows no one is working on, so several processes
// doing it at once is harmless.
import type { RoleStarter } from '../../app/roles';
import { deleteExpiredKeysBatch } from '../../domains/fitness/store/deleteExpiredKeys';
import { counter } from '../../metrics/registry';
import { publicationStores } from '../../publication/stores';
import { sleep, type Stoppable } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import { deletePublishedBatch } from '../../publication/kafkaFirst/sql/deletePublished';

export interface RetentionTask {
  table: string;
  store: string;
  /** Deletes at most `batchSize` expired rows; returns how many. */
  deleteBatch(batchSize: number): Promise<number>;
}

/** Deletes batch after batch until one comes back short (nothing expired is left); returns rows deleted. */
export async function runRetentionTask(
  deleteBatch: RetentionTask['deleteBatch'],
  batchSize: number,
  signal?: AbortSignal,
): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deleteBatch(batchSize);
    total += n;
    if (n < batchSize || signal?.aborted) return total;
    await sleep(10, signal); // yield between batches so live traffic keeps the engine
  }
}

export function startRetentionCleanup(o: {
  tasks: RetentionTask[];
  intervalMs: number;
  batchSize: number;
  logger: Logger;
  onDeleted?(task: RetentionTask, n: number): void;
}): Stoppable {
  const abort = new AbortController();
  const loop = (async () => {
    while (!abort.signal.aborted) {
      for (const task of o.tasks) {
        try {
          const n = await runRetentionTask(task.deleteBatch, o.batchSize, abort.signal);
          if (n) o.onDeleted?.(task, n);
        } catch (err) {
          o.logger.warn({ table: task.table, store: task.store, error: summarizeError(err) }, 'retention cleanup failed; will retry');
        }
      }
      await sleep(o.intervalMs, abort.signal);
    }
  })();
  return {
    async stop() {
      abort.abort();
      await loop;
    },
  };
}

export const startRetentionCleanups: RoleStarter = async ({ resources, logger, registry }) => {
  const s = resources.settings;
  const deleted = counter(registry, {
    name: 'tidemark_retention_deleted_rows_total',
    help: 'Rows deleted after their retention, by table and store.',
    labelNames: ['table', 'store'],
  });
  const publishedMs = s.kafkaFirstPublishedRetentionHours * 3600_000;
  const keysMs = s.fitnessIdempotencyKeyRetentionHours * 3600_000;
  const tasks: RetentionTask[] = [
    ...publicationStores(resources).map((p) => ({
      table: 'event_publications',
      store: p.name,
      deleteBatch: (n: number) => deletePublishedBatch(p.db, publishedMs, n),
    })),
    ...resources.mysql.shards.map((sh) => ({
      table: 'fitness_idempotency_keys',
      store: `mysql-shard-${sh.index}`,
      deleteBatch: (n: number) => deleteExpiredKeysBatch(sh.db, keysMs, n),
    })),
  ];
  return startRetentionCleanup({
    tasks,
    intervalMs: s.retentionCleanupIntervalMs,
    batchSize: s.retentionCleanupBatchSize,
    logger: logger.child({ component: 'retention' }),
    onDeleted: (task, n) => deleted.inc({ table: task.table, store: task.store }, n),
  });
};
