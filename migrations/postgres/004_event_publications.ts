// event_publications (PostgreSQL): replayable publication rows of the kafka-first strategy. A row
// exists only when the direct publish did not succeed (fallback) or the reconciler rebuilt a missing
// one; the normal path writes none. States: NOT_PUBLISHED -> PUBLISHED, or DEAD_LETTER after the
// relay's last failure (an operator replay moves it back to NOT_PUBLISHED). A claim is not a state:
// it is claim_owner + claim_expires_at on a NOT_PUBLISHED row, set from the database clock.
// The same table exists on every fitness MySQL shard (migrations/mysql/004_event_publications.ts).
import type { KnexMigration } from '../types';

export const m004EventPublications: KnexMigration = {
  name: '004_event_publications',
  async up(db) {
    await db.schema.createTable('event_publications', (t) => {
      t.bigIncrements('id').primary();
      t.string('event_id', 191).notNullable().unique('event_publications_event_id_uq');
      t.string('domain', 32).notNullable();
      t.string('aggregate_id', 128).notNullable();
      t.integer('version').notNullable();
      t.string('topic', 249).notNullable();
      t.string('message_key', 128).notNullable();
      t.text('message_value').notNullable();
      t.text('headers').notNullable();
      t.string('status', 16).notNullable();
      t.string('source', 16).notNullable();
      t.smallint('direct_attempts').notNullable();
      t.string('direct_result', 16).nullable();
      t.integer('relay_attempts').notNullable();
      t.integer('replay_count').notNullable();
      t.timestamp('next_attempt_at', { useTz: true, precision: 3 }).notNullable();
      t.string('claim_owner', 128).nullable();
      t.timestamp('claim_expires_at', { useTz: true, precision: 3 }).nullable();
      t.string('last_error_code', 64).nullable();
      t.string('last_error_summary', 255).nullable();
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(db.raw('CURRENT_TIMESTAMP(3)'));
      t.timestamp('published_at', { useTz: true, precision: 3 }).nullable();
    });
    await db.raw(
      `ALTER TABLE event_publications ADD CONSTRAINT event_publications_status_ck CHECK (status IN ('NOT_PUBLISHED', 'PUBLISHED', 'DEAD_LETTER'))`,
    );
    await db.raw(
      `ALTER TABLE event_publications ADD CONSTRAINT event_publications_source_ck CHECK (source IN ('DIRECT_FALLBACK', 'RECONCILER'))`,
    );
    // Relay claims walk (status, id) in id order and stop after LIMIT rows; operator views use (domain, status, created_at).
    await db.raw('CREATE INDEX event_publications_relay_idx ON event_publications (status, id)');
    await db.raw('CREATE INDEX event_publications_view_idx ON event_publications (domain, status, created_at, id)');
    await db.raw('CREATE INDEX event_publications_created_idx ON event_publications (domain, created_at, id)');
  },
  async down(db) {
    await db.schema.dropTable('event_publications');
  },
};
