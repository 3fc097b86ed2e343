// SQL: open a consistent snapshot of the orders database for a reconciliation run of an order window,
// and read the window's revision in it.
//
// Isolation: `BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY`. PostgreSQL takes the
// transaction's snapshot at its first statement, the revision read issued at once here: every later
// read through the returned transaction (revision, counts, buckets, states) sees the orders committed
// before that moment and none after. Orders are immutable and never deleted, so what changes under a
// live window is only new orders arriving; the snapshot fixes which ones the run judges.
//
// Locking: none (MVCC). A read-only REPEATABLE READ transaction never fails with a serialization error
// and blocks no writer; it holds back vacuum of row versions newer than its snapshot for one run.
import type { Knex } from 'knex';
import type { SourceRevision } from '../../../contract/sourceState';
import type { OrderWindowScope } from '../windowScope';
import { ordersRevision } from './sourceRevision';

export async function openWindowSnapshot(db: Knex, scope: OrderWindowScope): Promise<{ trx: Knex.Transaction; revision: SourceRevision }> {
  const trx = await db.transaction({ isolationLevel: 'repeatable read', readOnly: true });
  try {
    return { trx, revision: await ordersRevision(trx, scope) };
  } catch (err) {
    await trx.rollback().catch(() => undefined);
    throw err;
  }
}
