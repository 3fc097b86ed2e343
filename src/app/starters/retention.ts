// The relay role's retention housekeeping (src/relay/retention/retentionCleanup.ts runs the loop):
// PUBLISHED event_publications rows on every publication store and expired fitness idempotency keys on
// every shard, and (when FITNESS_DELETION_LOG_RETENTION_DAYS > 0) old deletion-log entries on every shard,
// each deleted after its configured retention, counted by table and store.
import { deleteExpiredDeletionsBatch } from '../../domains/fitness/store/deleteExpiredDeletions';
import { deleteExpiredKeysBatch } from '../../domains/fitness/store/deleteExpiredKeys';
import { counter } from '../../metrics/registry';
import { domainStores } from '../wiring/domainStores';
import { deletePublishedBatch } from '../../publication/kafkaFirst/sql/deletePublished';
import { startRetentionCleanup, type RetentionTask } from '../../relay/retention/retentionCleanup';
import type { RoleStarter } from '../roles';

export const startRetentionCleanups: RoleStarter = async ({ resources, logger, registry }) => {
  const s = resources.settings;
  const deleted = counter(registry, {
    name: 'tidemark_retention_deleted_rows_total',
    help: 'Rows deleted after their retention, by table and store.',
    labelNames: ['table', 'store'],
  });
  const publishedMs = s.kafkaFirstPublishedRetentionHours * 3600_000;
  const keysMs = s.fitnessIdempotencyKeyRetentionHours * 3600_000;
  const deletionsMs = s.fitnessDeletionLogRetentionDays * 86_400_000;
  const tasks: RetentionTask[] = [
    ...domainStores(resources).map((p) => ({
      table: 'event_publications',
      store: p.name,
      deleteBatch: (n: number) => deletePublishedBatch(p.db, publishedMs, n),
    })),
    ...resources.mysql.shards.map((sh) => ({
      table: 'fitness_idempotency_keys',
      store: `mysql-shard-${sh.index}`,
      deleteBatch: (n: number) => deleteExpiredKeysBatch(sh.db, keysMs, n),
    })),
    // 0 keeps the deletion log until the student is erased; an expired entry ends the repair of that
    // deletion's tombstone (src/domains/fitness/store/deleteExpiredDeletions.ts).
    ...(deletionsMs > 0
      ? resources.mysql.shards.map((sh) => ({
          table: 'fitness_result_deletions',
          store: `mysql-shard-${sh.index}`,
          deleteBatch: (n: number) => deleteExpiredDeletionsBatch(sh.db, deletionsMs, n),
        }))
      : []),
  ];
  return startRetentionCleanup({
    tasks,
    intervalMs: s.retentionCleanupIntervalMs,
    batchSize: s.retentionCleanupBatchSize,
    logger: logger.child({ component: 'retention' }),
    onDeleted: (task, n) => deleted.inc({ table: task.table, store: task.store }, n),
  });
};
