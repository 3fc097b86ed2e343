// SQL: the status transitions of discrepancies driven by repairs.
//   claimForRepair   OPEN -> REPAIRING, only for rows still OPEN: the guard in the WHERE clause and
//                    the row lock of the UPDATE make two operators (or the scheduler) repairing the
//                    same discrepancy at once harmless: exactly one claims it, the other is told.
//   resolve          any unresolved -> RESOLVED with a resolution (REPAIRED, REMOVED_BY_OPERATOR; ERASED is
//                    set by an erasure's scrub, scrubAggregates.ts).
//   reopen           REPAIRING -> OPEN when a repair failed or its verification failed.
// Locking: single-statement UPDATEs; each takes the row locks of the rows it changes and nothing else.
import type { Knex } from 'knex';

export async function claimForRepair(db: Knex, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = (await db('reconciliation_discrepancies')
    .whereIn('id', ids)
    .andWhere('status', 'OPEN')
    .update({ status: 'REPAIRING' })
    .returning('id')) as { id: string | number }[];
  return rows.map((r) => Number(r.id));
}

export async function resolveDiscrepancy(db: Knex, id: number, resolution: string, at: Date): Promise<void> {
  await db('reconciliation_discrepancies')
    .where({ id })
    .whereNot('status', 'RESOLVED')
    .update({ status: 'RESOLVED', resolution, resolved_at: at });
}

export async function reopenDiscrepancy(db: Knex, id: number): Promise<void> {
  await db('reconciliation_discrepancies').where({ id, status: 'REPAIRING' }).update({ status: 'OPEN' });
}
