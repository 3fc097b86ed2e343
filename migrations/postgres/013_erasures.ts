// The erasure ledger: one row per erasure request (docs/erasure.md). It is what makes an erasure
// resumable after any crash (the runner takes a due row, does a step, writes its progress back) and
// what stays as the audit record once the person is gone: who asked, when, why, the keyed hash that
// stands for the subject, and the certificate. The subject's own id is kept only while the erasure
// runs (the stores search for it) and set to NULL when it completes.
//
// Indexes: a partial unique index on (kind, subject_hash) over unfinished rows makes a repeated request
// return the running erasure instead of starting a second one (a completed one does not block a new
// request: a student who came back can be erased again). The due index serves the runner's claim
// (status <> 'COMPLETED' ORDER BY next_attempt_at). Dialect: PostgreSQL, inside the migration's transaction.
import type { KnexMigration } from '../types';

export const m013Erasures: KnexMigration = {
  name: '013_erasures',
  async up(db) {
    await db.schema.createTable('erasures', (t) => {
      t.uuid('id').primary();
      t.string('kind', 16).notNullable();
      t.string('domain', 32).notNullable();
      t.string('mode', 16).notNullable();
      t.string('subject_hash', 64).notNullable();
      t.string('subject_id', 64).nullable();
      t.string('status', 16).notNullable();
      t.string('reason', 500).notNullable();
      t.string('requested_by', 128).notNullable();
      t.timestamp('requested_at', { useTz: true }).notNullable();
      t.timestamp('deadline_at', { useTz: true }).notNullable();
      t.jsonb('aggregate_ids').notNullable();
      t.jsonb('progress').notNullable().defaultTo('{}');
      t.jsonb('certificate').nullable();
      t.integer('findings').notNullable().defaultTo(0);
      t.integer('attempts').notNullable().defaultTo(0);
      t.string('last_error', 64).nullable();
      t.timestamp('next_attempt_at', { useTz: true }).notNullable();
      t.string('lease_owner', 128).nullable();
      t.timestamp('lease_until', { useTz: true }).nullable();
      t.timestamp('verified_at', { useTz: true }).nullable();
      t.timestamp('completed_at', { useTz: true }).nullable();
    });
    await db.raw(`CREATE UNIQUE INDEX erasures_running_subject ON erasures (kind, subject_hash) WHERE status <> 'COMPLETED'`);
    await db.raw(`CREATE INDEX erasures_due ON erasures (next_attempt_at) WHERE status <> 'COMPLETED'`);
    await db.raw('CREATE INDEX erasures_requested_at ON erasures (requested_at)');
  },
  async down(db) {
    await db.schema.dropTable('erasures');
  },
};
