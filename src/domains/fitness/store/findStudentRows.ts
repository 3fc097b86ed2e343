// SQL: erasure's read-only searches of a shard's fitness tables for one student: the dataIds held for
// them (collect), and the rows that still name them (verify).
//
// Index: user_id on fitness_results (ix_fitness_results_user) and on the deletion log
// (ix_fitness_deletions_user, migration 008); data_id is the primary key of both and indexed on the
// idempotency keys. A key names its student only inside its stored response (JSON), which no index
// serves: that search scans the keys, which retention keeps to FITNESS_IDEMPOTENCY_KEY_RETENTION_HOURS.
// Locking: plain reads at READ COMMITTED; nothing is locked and writers are never blocked.
import type { Knex } from 'knex';
import { chunks } from '../../../infra/sql/aggregateRows';
import { DELETIONS, IDEMPOTENCY_KEYS, RESULTS } from './rows';

const keysNaming = (db: Knex, userId: number) => db.raw("JSON_EXTRACT(response, '$.userId') = ?", [userId]);

/** Every dataId the shard holds for the student: live results, the deletion log, idempotency keys. */
export async function studentDataIds(db: Knex, userId: number): Promise<number[]> {
  const ids = new Set<number>();
  for (const table of [RESULTS, DELETIONS])
    for (const r of (await db(table).select('data_id').where('user_id', userId)) as { data_id: number | string }[])
      ids.add(Number(r.data_id));
  for (const r of (await db(IDEMPOTENCY_KEYS).distinct('data_id').where(keysNaming(db, userId))) as { data_id: number | string }[])
    ids.add(Number(r.data_id));
  return [...ids].sort((a, b) => a - b);
}

/**
 * Rows per table holding one of these dataIds, or naming the student and created before `before` (a
 * result written after the request belongs to a returning student and is not the request's business).
 */
export async function countStudentRows(
  db: Knex,
  dataIds: readonly number[],
  userId: number,
  before: Date,
): Promise<Record<string, number>> {
  const count = async (q: Knex.QueryBuilder) => Number(((await q.count({ n: '*' })) as { n: number | string }[])[0]?.n ?? 0);
  const out: Record<string, number> = {};
  for (const table of [RESULTS, DELETIONS, IDEMPOTENCY_KEYS]) {
    let n = 0;
    for (const ids of chunks(dataIds)) n += await count(db(table).whereIn('data_id', ids));
    const naming = db(table).where('created_at', '<', before);
    if (table === IDEMPOTENCY_KEYS) naming.andWhere(keysNaming(db, userId));
    else naming.andWhere('user_id', userId);
    // The listed ids were counted above; here only what the collection missed.
    if (dataIds.length > 0) for (const ids of chunks(dataIds)) naming.whereNotIn('data_id', ids);
    out[table] = n + (await count(naming));
  }
  return out;
}
