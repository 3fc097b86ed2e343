// What a reconciliation run of a live scope left out: aggregates changed after its source snapshot,
// and aggregates in flight (their newer version pending or within the grace period). Counts only
// (never ids or values): operators see how much of a scope a CLEAN verdict did not cover, and that the
// next run covers it. See docs/reconciliation.md, "A scope edited while it is reconciled".
//
// Dialect: PostgreSQL, inside the migration's transaction. Adding a column with a constant default is
// metadata only (PostgreSQL 11+): no rewrite of reconciliation_runs, no long lock. Runs recorded before
// this migration read as having excluded nothing (they excluded nothing: they had no snapshot).
import type { KnexMigration } from '../types';

export const m011ReconciliationExclusions: KnexMigration = {
  name: '011_reconciliation_exclusions',
  async up(db) {
    await db.raw(
      'ALTER TABLE reconciliation_runs ADD COLUMN excluded_changed integer NOT NULL DEFAULT 0, ADD COLUMN excluded_in_flight integer NOT NULL DEFAULT 0',
    );
  },
  async down(db) {
    await db.raw('ALTER TABLE reconciliation_runs DROP COLUMN excluded_in_flight, DROP COLUMN excluded_changed');
  },
};
