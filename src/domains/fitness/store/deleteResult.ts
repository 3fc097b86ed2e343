// SQL: delete a result and record it in the deletion log, on the caller's transaction.
//
// Locking: the caller holds the live row FOR UPDATE. The deletion log row (last state, tombstone
// version, deletion time) is inserted before the live row is removed, in the same transaction, so
// there is never a moment where neither exists. The log outlives the row: repairs and the
// reconciler use it to deliver or verify the tombstone after the business row is gone.
import type { Knex } from 'knex';
import { TidemarkError } from '../../../shared/errors';
import type { FitnessResultState } from '../types';
import { DELETIONS, RESULTS, rowOf } from './rows';

export async function deleteResult(trx: Knex.Transaction, tombstone: FitnessResultState, previousVersion: number): Promise<void> {
  await trx(DELETIONS).insert({ ...rowOf(tombstone), deleted_at: tombstone.updatedAt });
  const n = await trx(RESULTS).where({ data_id: tombstone.dataId, version: previousVersion }).delete();
  if (n !== 1)
    throw new TidemarkError('VERSION_CONFLICT', 'the result changed concurrently; reload and retry', {
      details: { id: String(tombstone.dataId) },
    });
}
