// Indexes the reconciliation ledger's erasure and retention need (src/reconciliation/ledger/sql/
// scrubAggregates.ts, pruneLedger.ts). An erasure scrubs and verifies by (domain, aggregate_id) on
// discrepancies and repairs: the only index on discrepancies' aggregate is the partial unique one over
// unresolved rows, and repairs had none, so without these every erasure would scan both tables.
// Retention deletes finished runs and resolved discrepancies oldest first: partial indexes over the
// rows it may delete keep each batch an index range, never a scan of the live rows.
//
// Dialect: PostgreSQL, inside the migration's transaction (plain CREATE INDEX: the ledger is small and
// written by the reconciler only, so the short write lock is acceptable; CONCURRENTLY cannot run in a
// transaction).
import type { KnexMigration } from '../types';

export const m014ReconciliationLedgerErasure: KnexMigration = {
  name: '014_reconciliation_ledger_erasure',
  async up(db) {
    await db.raw('CREATE INDEX reconciliation_discrepancies_aggregate_idx ON reconciliation_discrepancies (domain, aggregate_id)');
    await db.raw(
      'CREATE INDEX reconciliation_repairs_aggregate_idx ON reconciliation_repairs (domain, aggregate_id) WHERE aggregate_id IS NOT NULL',
    );
    await db.raw('CREATE INDEX reconciliation_runs_finished_idx ON reconciliation_runs (finished_at) WHERE finished_at IS NOT NULL');
    await db.raw(
      "CREATE INDEX reconciliation_discrepancies_resolved_idx ON reconciliation_discrepancies (resolved_at) WHERE status = 'RESOLVED'",
    );
  },
  async down(db) {
    for (const name of [
      'reconciliation_discrepancies_resolved_idx',
      'reconciliation_runs_finished_idx',
      'reconciliation_repairs_aggregate_idx',
      'reconciliation_discrepancies_aggregate_idx',
    ])
      await db.raw('DROP INDEX IF EXISTS ??', [name]);
  },
};
