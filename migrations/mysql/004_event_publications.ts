// event_publications on every fitness shard (MySQL/MariaDB): the kafka-first strategy's fallback rows
// live in the same database as the business rows they describe, so either domain can use either
// strategy. Same columns and states as migrations/postgres/004_event_publications.ts; DATETIME(3) in
// UTC (every pooled connection runs with time_zone '+00:00'). event_id is at most 191 characters so the
// unique index fits utf8mb4 on older InnoDB row formats. The relay index is (status, id): a claim walks
// it in id order and stops after LIMIT matching rows, so InnoDB locks only the rows it hands out (an
// index that needs a filesort would lock every NOT_PUBLISHED row and starve concurrent relays).
import type { KnexMigration } from '../types';

export const m004EventPublications: KnexMigration = {
  name: '004_event_publications',
  async up(db) {
    await db.schema.createTable('event_publications', (t) => {
      t.bigIncrements('id').unsigned().primary();
      t.string('event_id', 191).notNullable().unique('event_publications_event_id_uq');
      t.string('domain', 32).notNullable();
      t.string('aggregate_id', 128).notNullable();
      t.integer('version').notNullable();
      t.string('topic', 249).notNullable();
      t.string('message_key', 128).notNullable();
      t.specificType('message_value', 'MEDIUMTEXT').notNullable();
      t.text('headers').notNullable();
      t.string('status', 16).notNullable();
      t.string('source', 16).notNullable();
      t.smallint('direct_attempts').notNullable();
      t.string('direct_result', 16).nullable();
      t.integer('relay_attempts').notNullable();
      t.integer('replay_count').notNullable();
      t.specificType('next_attempt_at', 'DATETIME(3)').notNullable();
      t.string('claim_owner', 128).nullable();
      t.specificType('claim_expires_at', 'DATETIME(3)').nullable();
      t.string('last_error_code', 64).nullable();
      t.string('last_error_summary', 255).nullable();
      t.specificType('created_at', 'DATETIME(3)').notNullable().defaultTo(db.raw('CURRENT_TIMESTAMP(3)'));
      t.specificType('published_at', 'DATETIME(3)').nullable();
      t.index(['status', 'id'], 'event_publications_relay_idx');
      t.index(['domain', 'status', 'created_at', 'id'], 'event_publications_view_idx');
      t.index(['domain', 'created_at', 'id'], 'event_publications_created_idx');
    });
  },
  async down(db) {
    await db.schema.dropTable('event_publications');
  },
};
