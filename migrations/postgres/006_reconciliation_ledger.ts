// The reconciliation ledger (PostgreSQL): runs, discrepancies, repairs, projection rebuilds, the
// quarantine of content a rebuild replaced, and the scheduler's lease. It lives here rather than in
// ClickHouse because it is a small, mutable state machine that needs transactions, row updates,
// unique constraints and row locks (one open discrepancy per aggregate, one active rebuild per
// domain), none of which ClickHouse offers; and not in a fitness shard because it spans domains and
// shards. See docs/reconciliation.md.
import type { KnexMigration } from '../types';

export const m006ReconciliationLedger: KnexMigration = {
  name: '006_reconciliation_ledger',
  async up(db) {
    const ts = { useTz: true, precision: 3 } as const;
    await db.schema.createTable('reconciliation_runs', (t) => {
      t.bigIncrements('id').primary();
      t.string('domain', 16).notNullable();
      t.string('scope_key', 200).notNullable();
      t.jsonb('scope').notNullable();
      t.string('level_requested', 8).notNullable();
      t.string('level_reached', 8).nullable();
      t.string('trigger', 24).notNullable();
      t.string('outcome', 16).nullable();
      t.integer('attempts').notNullable().defaultTo(0);
      t.string('note', 300).nullable();
      t.jsonb('revision_before').nullable();
      t.jsonb('revision_after').nullable();
      t.jsonb('counts').notNullable().defaultTo('[]');
      t.integer('buckets_compared').notNullable().defaultTo(0);
      t.integer('buckets_mismatched').notNullable().defaultTo(0);
      t.integer('discrepancies_found').notNullable().defaultTo(0);
      t.string('requested_by', 128).notNullable();
      t.timestamp('started_at', ts).notNullable();
      t.timestamp('finished_at', ts).nullable();
      t.integer('duration_ms').nullable();
      t.string('error_code', 64).nullable();
      t.string('error_summary', 255).nullable();
      t.index(['scope_key', 'finished_at'], 'reconciliation_runs_scope_idx');
      t.index(['domain', 'started_at'], 'reconciliation_runs_domain_idx');
    });

    await db.schema.createTable('reconciliation_discrepancies', (t) => {
      t.bigIncrements('id').primary();
      t.string('domain', 16).notNullable();
      t.string('scope_key', 200).notNullable();
      t.jsonb('scope').notNullable();
      t.string('aggregate_id', 128).notNullable();
      t.string('kind', 24).notNullable();
      t.string('status', 16).notNullable();
      t.bigInteger('source_version').nullable();
      t.bigInteger('target_version').nullable();
      t.string('source_digest', 32).nullable();
      t.string('target_digest', 32).nullable();
      t.specificType('differing_fields', 'text[]').notNullable().defaultTo('{}');
      t.timestamp('first_seen_at', ts).notNullable();
      t.timestamp('last_seen_at', ts).notNullable();
      t.integer('seen_count').notNullable().defaultTo(1);
      t.bigInteger('first_run_id').notNullable();
      t.bigInteger('last_run_id').notNullable();
      t.timestamp('resolved_at', ts).nullable();
      t.string('resolution', 32).nullable();
      t.index(['status', 'domain', 'kind'], 'reconciliation_discrepancies_status_idx');
      t.index(['scope_key', 'status'], 'reconciliation_discrepancies_scope_idx');
    });
    await db.raw(`ALTER TABLE reconciliation_discrepancies ADD CONSTRAINT reconciliation_discrepancies_kind_ck
      CHECK (kind IN ('MISSING', 'STALE_VERSION', 'CONTENT_MISMATCH', 'DELETION_NOT_APPLIED', 'UNEXPECTED_ROW'))`);
    await db.raw(
      `ALTER TABLE reconciliation_discrepancies ADD CONSTRAINT reconciliation_discrepancies_status_ck CHECK (status IN ('OPEN', 'REPAIRING', 'RESOLVED'))`,
    );
    // At most one unresolved discrepancy per aggregate: a later run updates it instead of adding rows.
    await db.raw(
      `CREATE UNIQUE INDEX reconciliation_discrepancies_open_uq ON reconciliation_discrepancies (domain, aggregate_id) WHERE status <> 'RESOLVED'`,
    );

    await db.schema.createTable('projection_rebuilds', (t) => {
      t.bigIncrements('id').primary();
      t.string('domain', 16).notNullable();
      t.string('scope_key', 200).notNullable();
      t.jsonb('scope').notNullable();
      t.string('status', 16).notNullable();
      t.string('phase', 32).notNullable();
      t.string('shadow_table', 128).notNullable();
      t.string('retired_table', 128).nullable();
      t.integer('source_rows').notNullable().defaultTo(0);
      t.integer('quarantined').notNullable().defaultTo(0);
      t.string('requested_by', 128).notNullable();
      t.string('reason', 300).notNullable();
      t.jsonb('validation').nullable();
      t.timestamp('started_at', ts).notNullable();
      t.timestamp('heartbeat_at', ts).notNullable();
      t.timestamp('swapped_at', ts).nullable();
      t.timestamp('finished_at', ts).nullable();
      t.string('error_code', 64).nullable();
      t.string('error_summary', 255).nullable();
    });
    await db.raw(
      `ALTER TABLE projection_rebuilds ADD CONSTRAINT projection_rebuilds_status_ck CHECK (status IN ('RUNNING', 'VERIFIED', 'FAILED'))`,
    );
    // One rebuild per projection table at a time: a rebuild swaps the whole table.
    await db.raw(`CREATE UNIQUE INDEX projection_rebuilds_active_uq ON projection_rebuilds (domain) WHERE status = 'RUNNING'`);

    await db.schema.createTable('reconciliation_repairs', (t) => {
      t.bigIncrements('id').primary();
      t.bigInteger('discrepancy_id').nullable().references('id').inTable('reconciliation_discrepancies');
      t.string('domain', 16).notNullable();
      t.string('scope_key', 200).notNullable();
      t.jsonb('scope').notNullable();
      t.string('action', 24).notNullable();
      t.string('reason', 300).notNullable();
      t.string('aggregate_id', 128).nullable();
      t.bigInteger('source_version').nullable();
      t.bigInteger('target_version').nullable();
      t.string('event_id', 191).nullable();
      t.bigInteger('rebuild_id').nullable().references('id').inTable('projection_rebuilds');
      t.string('requested_by', 128).notNullable();
      t.string('outcome', 16).notNullable();
      t.string('outcome_note', 300).nullable();
      t.string('verification', 16).notNullable();
      t.integer('verification_attempts').notNullable().defaultTo(0);
      t.timestamp('verified_at', ts).nullable();
      t.string('error_code', 64).nullable();
      t.string('error_summary', 255).nullable();
      t.timestamp('created_at', ts).notNullable();
      t.timestamp('updated_at', ts).notNullable();
      t.index(['discrepancy_id'], 'reconciliation_repairs_discrepancy_idx');
      t.index(['created_at'], 'reconciliation_repairs_created_idx');
    });
    await db.raw(`ALTER TABLE reconciliation_repairs ADD CONSTRAINT reconciliation_repairs_action_ck
      CHECK (action IN ('REPLAY', 'TOMBSTONE', 'REBUILD', 'INVESTIGATE', 'REMOVE_UNEXPECTED', 'QUARANTINE_SWEEP'))`);
    await db.raw(
      `ALTER TABLE reconciliation_repairs ADD CONSTRAINT reconciliation_repairs_outcome_ck CHECK (outcome IN ('SENT', 'COMPLETED', 'REFUSED', 'FAILED'))`,
    );
    await db.raw(
      `ALTER TABLE reconciliation_repairs ADD CONSTRAINT reconciliation_repairs_verification_ck CHECK (verification IN ('PENDING', 'PASSED', 'FAILED', 'NOT_APPLICABLE'))`,
    );
    await db.raw(`CREATE INDEX reconciliation_repairs_pending_idx ON reconciliation_repairs (created_at) WHERE verification = 'PENDING'`);

    await db.schema.createTable('projection_quarantine', (t) => {
      t.bigIncrements('id').primary();
      t.string('domain', 16).notNullable();
      t.string('aggregate_id', 128).notNullable();
      t.bigInteger('version').notNullable();
      t.string('digest', 32).notNullable();
      t.bigInteger('rebuild_id').notNullable().references('id').inTable('projection_rebuilds');
      t.timestamp('created_at', ts).notNullable();
      t.unique(['domain', 'aggregate_id', 'version', 'digest'], { indexName: 'projection_quarantine_uq' });
    });

    await db.schema.createTable('reconciliation_leases', (t) => {
      t.string('name', 64).primary();
      t.string('owner', 128).notNullable();
      t.timestamp('expires_at', ts).notNullable();
    });
  },
  async down(db) {
    for (const table of [
      'reconciliation_leases',
      'projection_quarantine',
      'reconciliation_repairs',
      'projection_rebuilds',
      'reconciliation_discrepancies',
      'reconciliation_runs',
    ])
      await db.schema.dropTableIfExists(table);
  },
};
