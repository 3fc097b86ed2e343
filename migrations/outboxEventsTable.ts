// The outbox table, identical in meaning on MySQL/MariaDB (every fitness shard) and PostgreSQL (the
// orders store): one row per event, written in the business transaction, then claimed and published
// by relays. Migration 005 (MySQL) / 007 (PostgreSQL) replaces the four status indexes below by one
// (status, due_at) index on a generated column (migrations/outboxDueAt.ts). Indexes created here:
//   (status, created_at)        NEW claims in age order, oldest-unsent age, counts per status
//   (status, next_retry_at)     FAILED rows whose retry time has come
//   (status, lease_expires_at)  PROCESSING rows whose lease expired
//   (status, sent_at)           retention cleanup of SENT rows
// Times are the database's own clock (DATETIME(3) UTC on MySQL, timestamptz on PostgreSQL).
import type { Knex } from 'knex';

export async function createOutboxEventsTable(db: Knex): Promise<void> {
  const pg = db.client.config.client === 'pg';
  const time = (t: Knex.CreateTableBuilder, name: string) =>
    pg ? t.timestamp(name, { useTz: true, precision: 3 }) : t.specificType(name, 'DATETIME(3)');
  await db.schema.createTable('outbox_events', (t) => {
    t.bigIncrements('id').primary();
    t.string('event_id', 191).notNullable().unique({ indexName: 'ux_outbox_event_id' });
    t.string('domain', 32).notNullable();
    t.string('aggregate_id', 191).notNullable();
    t.integer('version').notNullable();
    t.string('topic', 249).notNullable();
    t.string('message_key', 191).notNullable();
    if (pg) t.text('message_value').notNullable();
    else t.specificType('message_value', 'MEDIUMTEXT').notNullable();
    t.text('headers').notNullable();
    t.string('status', 16).notNullable().defaultTo('NEW');
    t.integer('attempts').notNullable().defaultTo(0);
    time(t, 'next_retry_at').nullable();
    t.string('claim_token', 36).nullable();
    t.string('claimed_by', 64).nullable();
    time(t, 'lease_expires_at').nullable();
    t.string('last_error_code', 64).nullable();
    t.string('last_error_summary', 255).nullable();
    time(t, 'created_at')
      .notNullable()
      .defaultTo(pg ? db.fn.now() : db.raw('CURRENT_TIMESTAMP(3)'));
    time(t, 'sent_at').nullable();
    time(t, 'parked_at').nullable();
    time(t, 'replayed_at').nullable();
    t.integer('replay_count').notNullable().defaultTo(0);
    t.index(['status', 'created_at'], 'ix_outbox_status_created');
    t.index(['status', 'next_retry_at'], 'ix_outbox_status_retry');
    t.index(['status', 'lease_expires_at'], 'ix_outbox_status_lease');
    t.index(['status', 'sent_at'], 'ix_outbox_status_sent');
  });
  // Both engines enforce CHECK (MariaDB since 10.2, MySQL since 8.0.16).
  await db.raw("ALTER TABLE outbox_events ADD CONSTRAINT ck_outbox_status CHECK (status IN ('NEW','PROCESSING','SENT','FAILED','PARKED'))");
}
