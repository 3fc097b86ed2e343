// SQL: delete a result and record it in the deletion log, on the caller's transaction.
//
// Locking: the caller holds the live row FOR UPDATE. The deletion log row (last state, tombstone
// version, deletion time) is inserted before the live row is removed, in the same transaction, so
// there is never a moment where neither exists. The log outlives the row: repairs and the
// reconciler use it to deliver or verify the tombstone after the business row is gone. The log row
// keeps who wrote the last live state (changed_by) and who deleted it (deleted_by).
import type { Knex } from 'knex';
import { TidemarkError } from '../../../shared/errors';
import type { FitnessResultState } from '../types';
import { DELETIONS, RESULTS, rowOf } from './rows';

export async function deleteResult(
  trx: Knex.Transaction,
  tombstone: FitnessResultState,
  previous: Pick<FitnessResultState, 'version' | 'changedBy'>,
): Promise<void> {
  await trx(DELETIONS).insert({
    ...rowOf(tombstone),
    changed_by: previous.changedBy,
    deleted_by: tombstone.changedBy,
    deleted_at: tombstone.updatedAt,
  });
  const n = await trx(RESULTS).where({ data_id: tombstone.dataId, version: previous.version }).delete();
  if (n !== 1)
    throw new TidemarkError('VERSION_CONFLICT', 'the result changed concurrently; reload and retry', {
      details: { id: String(tombstone.dataId) },
    });
}
