// SQL: the revision of an order window: orders, their version sum (every order is version 1, so
// this is the count) and the newest createdAt.
//
// Locking: a plain non-locking read (one MVCC snapshot), served by orders_created_at_idx.
import type { Knex } from 'knex';
import type { SourceRevision } from '../../../contract/sourceState';
import type { OrderWindowScope } from '../windowScope';

export async function ordersRevision(db: Knex, scope: OrderWindowScope): Promise<SourceRevision> {
  const r = await db.raw<{ rows: { n: string; max_commit: Date | null }[] }>(
    'SELECT COUNT(*) AS n, MAX(created_at) AS max_commit FROM orders WHERE created_at >= ? AND created_at < ?',
    [scope.from, scope.to],
  );
  const row = r.rows[0]!;
  const n = Number(row.n);
  return { aggregates: n, live: n, versionSum: n, maxCommitMs: row.max_commit ? new Date(row.max_commit).getTime() : 0 };
}
