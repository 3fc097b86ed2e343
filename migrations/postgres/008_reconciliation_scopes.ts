// The registry of reconciliation scopes the rolling re-verification walks: every fitness campaign and
// every UTC hour of orders, with when it was last verified CLEAN at CONTENT level. The scheduler
// re-verifies the oldest first (never verified ones before all others), so a lost ClickHouse part or
// a stray mutation in a scope that no longer changes is still found. See docs/reconciliation.md.
import type { KnexMigration } from '../types';

export const m008ReconciliationScopes: KnexMigration = {
  name: '008_reconciliation_scopes',
  async up(db) {
    const ts = { useTz: true, precision: 3 } as const;
    await db.schema.createTable('reconciliation_scopes', (t) => {
      t.string('scope_key', 200).primary();
      t.string('domain', 16).notNullable();
      t.jsonb('scope').notNullable();
      t.integer('aggregates').notNullable().defaultTo(0);
      t.timestamp('registered_at', ts).notNullable();
      t.timestamp('last_run_at', ts).nullable();
      t.string('last_outcome', 16).nullable();
      t.timestamp('last_verified_at', ts).nullable();
      t.bigInteger('last_verified_run_id').nullable();
    });
    // Oldest verification first, never verified (NULL) first of all: the rotation's one ordered read.
    await db.raw('CREATE INDEX reconciliation_scopes_rotation_idx ON reconciliation_scopes (last_verified_at NULLS FIRST, scope_key)');
  },
  async down(db) {
    await db.schema.dropTableIfExists('reconciliation_scopes');
  },
};
