// SQL: give a named lease back (a reconciler stopping cleanly, so another takes over at once instead of
// after the lease's expiry).
//
// Locking: one DELETE by the primary key (name); the owner condition makes it a no-op when the lease has
// meanwhile expired and been taken by another process, whose lease must stay. Nothing else is touched.
import type { Knex } from 'knex';

/** Deletes the lease if `owner` holds it; true when it did. */
export async function releaseLease(db: Knex, name: string, owner: string): Promise<boolean> {
  const n = await db('reconciliation_leases')
    .where({ name, owner: owner.slice(0, 128) })
    .delete();
  return n > 0;
}
