// The kafka-first publication reconciler's progress row (publication_reconciler_progress), one per
// scope (by default the domain's name). Positions are (created_at, aggregate id); the id column is a
// uuid (scanned_order_id, named after the first domain that ran the strategy), so a domain scanned
// here keys its rows by uuid.
//
// lockProgress: SELECT .. FOR UPDATE SKIP LOCKED in the pass's transaction. A second reconciler
// process finds the row locked and skips its pass instead of queueing behind the first, so one range
// is never examined twice at once. The row is created on first use (INSERT .. ON CONFLICT DO NOTHING,
// outside any long transaction) at the very beginning of time.
import type { Knex } from 'knex';
import type { ScanPosition } from '../../domains/contract/reconciliation';

export const SCAN_START: ScanPosition = { createdAt: new Date(0), aggregateId: '00000000-0000-0000-0000-000000000000' };
/** The greatest id: a scan that caught up resumes after every row created at the cutoff. */
export const LAST_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

export async function ensureProgress(db: Knex, scope: string): Promise<void> {
  await db.raw(
    'INSERT INTO publication_reconciler_progress (scope, scanned_created_at, scanned_order_id) VALUES (?, ?, ?::uuid) ON CONFLICT (scope) DO NOTHING',
    [scope, SCAN_START.createdAt, SCAN_START.aggregateId],
  );
}

/** The locked position, or undefined when another reconciler holds it right now. */
export async function lockProgress(trx: Knex.Transaction, scope: string): Promise<ScanPosition | undefined> {
  const r = await trx.raw<{ rows: { scanned_created_at: Date; scanned_order_id: string }[] }>(
    'SELECT scanned_created_at, scanned_order_id FROM publication_reconciler_progress WHERE scope = ? FOR UPDATE SKIP LOCKED',
    [scope],
  );
  const row = r.rows[0];
  return row ? { createdAt: new Date(row.scanned_created_at), aggregateId: row.scanned_order_id } : undefined;
}

export async function saveProgress(trx: Knex.Transaction, scope: string, p: ScanPosition): Promise<void> {
  await trx.raw(
    'UPDATE publication_reconciler_progress SET scanned_created_at = ?, scanned_order_id = ?::uuid, updated_at = CURRENT_TIMESTAMP(3) WHERE scope = ?',
    [p.createdAt, p.aggregateId, scope],
  );
}
