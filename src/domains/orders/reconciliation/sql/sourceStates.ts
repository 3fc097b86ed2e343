// SQL: the authoritative state of each order of a window (or of some buckets / ids) with its
// canonical digest; createdAt is the commit time of an order's only version.
//
// Locking: a plain non-locking read. A run at IDS/CONTENT level issues it inside the run's REPEATABLE
// READ snapshot (windowSnapshot.ts); the current state of a few ids and the rebuild's validation read
// it outside, with the window's revision checked around it.
import type { Knex } from 'knex';
import type { CompareLevel } from '../../../contract/canonicalFields';
import { postgresCells } from '../../../contract/sqlCells';
import type { RecordState } from '../../../contract/sourceState';
import type { StateFilter } from '../../../contract/sourceReader';
import type { OrderWindowScope } from '../windowScope';
import { orderLineSql, scopeRows } from './scopeRows';

export async function ordersStates(db: Knex, scope: OrderWindowScope, level: CompareLevel, filter: StateFilter): Promise<RecordState[]> {
  const r = scopeRows(scope, filter);
  const line = orderLineSql(level);
  const res = await db.raw<{ rows: { id: string; digest: string; created_at: Date; line?: string }[] }>(
    `SELECT r.order_id::text AS id, ${postgresCells.digest(line)} AS digest, r.created_at${filter.withLines ? `, ${line} AS line` : ''} FROM ${r.sql}`,
    r.bindings,
  );
  return res.rows.map((row) => ({
    id: row.id,
    version: 1,
    isDeleted: false,
    digest: row.digest,
    commitMs: new Date(row.created_at).getTime(),
    ...(row.line !== undefined ? { line: row.line } : {}),
  }));
}
