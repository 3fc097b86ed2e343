// SQL: the reconciliation ledger's retention (RECONCILIATION_LEDGER_RETENTION_DAYS, docs/erasure.md,
// "Retention"). Older than the cutoff, and finished, these go, children before parents (foreign keys):
//   1. repairs whose verification is settled (not PENDING);
//   2. resolved discrepancies no repair refers to any more;
//   3. finished runs (discrepancies name runs by id without a foreign key: an open one may outlive its
//      first run, and keeps its ids as history);
//   4. finished rebuilds (not RUNNING) no repair or quarantine row refers to: the quarantine stays as
//      long as its rebuild's content must be swept, so its rebuild stays too.
// Open or repairing discrepancies, pending repairs and running rebuilds are never pruned.
//
// Locking: each batch is one DELETE of at most `batch` rows chosen by primary key in a sub-select with
// FOR UPDATE SKIP LOCKED: a row a reconciliation run or a repair holds is skipped (the next pass takes
// it), so pruning never waits on the reconciler and never holds more than one batch of row locks.
// Indexes: reconciliation_runs_finished_idx, reconciliation_discrepancies_resolved_idx (migration 014),
// reconciliation_repairs_created_idx (006); projection_rebuilds is small (one row per rebuild).
import type { Knex } from 'knex';

/** One prunable table: the condition its old rows meet (:cutoff is the cutoff wherever it appears). */
interface Prunable {
  table: string;
  where: string;
}

const PRUNABLE: readonly Prunable[] = [
  { table: 'reconciliation_repairs', where: "created_at < :cutoff AND verification <> 'PENDING'" },
  {
    table: 'reconciliation_discrepancies',
    where:
      "status = 'RESOLVED' AND resolved_at < :cutoff AND NOT EXISTS " +
      '(SELECT 1 FROM reconciliation_repairs r WHERE r.discrepancy_id = reconciliation_discrepancies.id)',
  },
  { table: 'reconciliation_runs', where: 'finished_at IS NOT NULL AND finished_at < :cutoff' },
  {
    table: 'projection_rebuilds',
    where:
      "status <> 'RUNNING' AND finished_at IS NOT NULL AND finished_at < :cutoff" +
      ' AND NOT EXISTS (SELECT 1 FROM reconciliation_repairs r WHERE r.rebuild_id = projection_rebuilds.id)' +
      ' AND NOT EXISTS (SELECT 1 FROM projection_quarantine q WHERE q.rebuild_id = projection_rebuilds.id)',
  },
];

/**
 * The one batched delete: rows of `table` meeting `where` (named bindings), at most `batch` per
 * statement, until a statement deletes fewer (or `maxBatches` ran: the next pass goes on). Returns
 * the rows deleted.
 */
export async function deleteInBatches(
  db: Knex,
  table: string,
  where: string,
  bindings: Record<string, Knex.Value>,
  o: { batch: number; maxBatches: number },
): Promise<number> {
  let total = 0;
  for (let i = 0; i < o.maxBatches; i++) {
    const r = await db.raw(
      `DELETE FROM :table: WHERE id IN (SELECT id FROM :table: WHERE ${where} ORDER BY id LIMIT :batch FOR UPDATE SKIP LOCKED)`,
      { ...bindings, table, batch: o.batch },
    );
    const n = r.rowCount ?? 0;
    total += n;
    if (n < o.batch) break;
  }
  return total;
}

/** Rows deleted per table by one pass of retention. */
export type PruneReport = Record<string, number>;

/** Prunes every ledger table of rows finished before `cutoff`, in bounded batches. */
export async function pruneLedger(db: Knex, cutoff: Date, o: { batch?: number; maxBatches?: number } = {}): Promise<PruneReport> {
  const report: PruneReport = {};
  for (const p of PRUNABLE)
    report[p.table] = await deleteInBatches(db, p.table, p.where, { cutoff }, { batch: o.batch ?? 1000, maxBatches: o.maxBatches ?? 100 });
  return report;
}
