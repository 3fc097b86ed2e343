// Indexes an erasure of a student needs on every fitness shard (docs/erasure.md), so that neither the
// collection of a student's aggregates, the delete, nor the certificate's search scans a table:
//   fitness_result_deletions (user_id)    the deletion log by student (fitness_results has ix_fitness_results_user)
//   fitness_idempotency_keys (data_id)    a result's keys and their stored responses (the key is (owner, key))
//   outbox_events (aggregate_id)          an aggregate's outbox rows in every state (status-led indexes only)
//   event_publications (aggregate_id)     an aggregate's publication rows in every state
// Dialect: MariaDB/MySQL; each ADD INDEX is an online (in-place, non-blocking for DML) InnoDB build.
import type { KnexMigration } from '../types';

const INDEXES: readonly [table: string, index: string, column: string][] = [
  ['fitness_result_deletions', 'ix_fitness_deletions_user', 'user_id'],
  ['fitness_idempotency_keys', 'ix_fitness_idempotency_data', 'data_id'],
  ['outbox_events', 'ix_outbox_aggregate', 'aggregate_id'],
  ['event_publications', 'event_publications_aggregate_idx', 'aggregate_id'],
];

export const m008ErasureIndexes: KnexMigration = {
  name: '008_erasure_indexes',
  async up(db) {
    for (const [table, index, column] of INDEXES) await db.raw(`ALTER TABLE ${table} ADD INDEX ${index} (${column})`);
  },
  async down(db) {
    for (const [table, index] of [...INDEXES].reverse()) await db.raw(`ALTER TABLE ${table} DROP INDEX ${index}`);
  },
};
