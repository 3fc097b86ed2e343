// Fitness results on each shard. `fitness_results` holds the live state (one row per dataId, its
// version advanced under the row lock); `fitness_result_deletions` is the deletion log that outlives
// the row (the last state plus the tombstone version), kept for repairs and reconciliation;
// `fitness_data_ids` allocates the shard-local sequence of dataId = sequence * 100 + shard (rows are
// kept so the AUTO_INCREMENT counter can never fall back and reuse an id); `fitness_idempotency_keys`
// remembers the first response to a client key. DECIMAL(10,3) keeps results exact.
import type { Knex } from 'knex';
import type { KnexMigration } from '../types';

function resultColumns(t: Knex.CreateTableBuilder): void {
  t.bigInteger('data_id').unsigned().primary();
  t.integer('detect_id').unsigned().notNullable();
  t.integer('user_id').unsigned().notNullable();
  t.integer('project_id').unsigned().notNullable();
  t.integer('school_id').unsigned().notNullable();
  t.tinyint('grade').unsigned().notNullable();
  t.decimal('result', 10, 3).notNullable();
  t.string('unit', 16).notNullable();
  t.integer('version').unsigned().notNullable();
  t.specificType('created_at', 'DATETIME(3)').notNullable();
  t.specificType('updated_at', 'DATETIME(3)').notNullable();
}

export const m002FitnessResults: KnexMigration = {
  name: '002_fitness_results',
  async up(db) {
    await db.schema.createTable('fitness_results', (t) => {
      resultColumns(t);
      t.index(['detect_id', 'project_id'], 'ix_fitness_results_campaign');
      t.index(['user_id'], 'ix_fitness_results_user');
    });
    await db.schema.createTable('fitness_result_deletions', (t) => {
      resultColumns(t);
      t.specificType('deleted_at', 'DATETIME(3)').notNullable();
      t.index(['detect_id', 'project_id'], 'ix_fitness_deletions_campaign');
      t.index(['deleted_at'], 'ix_fitness_deletions_time');
    });
    await db.schema.createTable('fitness_data_ids', (t) => {
      t.bigIncrements('local_seq').primary();
      t.specificType('allocated_at', 'DATETIME(3)').notNullable().defaultTo(db.raw('CURRENT_TIMESTAMP(3)'));
    });
    await db.schema.createTable('fitness_idempotency_keys', (t) => {
      t.string('idempotency_key', 128).primary();
      t.specificType('request_hash', 'CHAR(64)').notNullable();
      t.bigInteger('data_id').unsigned().notNullable();
      t.text('response').notNullable();
      t.specificType('created_at', 'DATETIME(3)').notNullable();
      t.index(['created_at'], 'ix_fitness_idempotency_time');
    });
  },
  async down(db) {
    for (const table of ['fitness_idempotency_keys', 'fitness_data_ids', 'fitness_result_deletions', 'fitness_results'])
      await db.schema.dropTableIfExists(table);
  },
};
