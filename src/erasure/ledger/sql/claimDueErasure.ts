// SQL: take the next due erasure for one runner (a lease), so two reconcilers never work on the same one.
//
// Locking: SELECT ... FOR UPDATE SKIP LOCKED on the due index (migration 013: unfinished rows by
// next_attempt_at), then an UPDATE that sets the lease, in one transaction: a second runner skips the
// locked row and takes another. A lease whose holder crashed runs out (lease_until) and the row is
// due again. Times come from the caller's clock (the runner's injected clock), compared with stored ones.
import type { Knex } from 'knex';
import { erasureRecord, type ErasureRecord, type ErasureRow } from '../records';

export async function claimDueErasure(db: Knex, owner: string, now: Date, leaseMs: number): Promise<ErasureRecord | undefined> {
  return db.transaction(async (tx) => {
    const due = await tx.raw<{ rows: { id: string }[] }>(
      `SELECT id FROM erasures
        WHERE status <> 'COMPLETED' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
        ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [now, now],
    );
    const id = due.rows[0]?.id;
    if (!id) return undefined;
    const [row] = await tx<ErasureRow>('erasures')
      .where({ id })
      .update({ lease_owner: owner.slice(0, 128), lease_until: new Date(now.getTime() + leaseMs) })
      .returning('*');
    return row && erasureRecord(row);
  });
}
