// SQL: erase results from a shard's fitness tables: the live rows, their deletion log entries and the
// idempotency keys (with the first responses they replay, which carry the whole result) of these
// dataIds, on the caller's transaction (the erasure deletes a shard's publication rows in the same one).
//
// Index: data_id is the primary key of both result tables and has an index on the keys (MySQL
// migration 008_erasure_indexes); ids are bound in chunks so each statement's IN list stays small.
// Locking: at READ COMMITTED the deletes lock only the matching records (no gap locks): a concurrent
// correction of one of these results waits for the commit and then finds no row (NOT_FOUND); a new
// result of a returning student has a new dataId and is never touched. fitness_data_ids keeps the
// allocated sequence numbers (no personal data; they must never be reused).
import type { Knex } from 'knex';
import { chunks } from '../../../infra/sql/aggregateRows';
import { DELETIONS, IDEMPOTENCY_KEYS, RESULTS } from './rows';

export async function deleteResultRows(trx: Knex.Transaction, dataIds: readonly number[]): Promise<number> {
  let n = 0;
  for (const ids of chunks(dataIds))
    for (const table of [RESULTS, DELETIONS, IDEMPOTENCY_KEYS]) n += await trx(table).whereIn('data_id', ids).delete();
  return n;
}
