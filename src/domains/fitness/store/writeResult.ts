// SQL: write a new version of a result (insert, correct) on the caller's transaction.
//
// Locking: the insert locks the new primary key; the update is guarded by the version it replaces
// (`WHERE version = previous`) on a row the caller already holds FOR UPDATE, so the guard is a second
// line of defence: if it ever matches no row, the transaction is aborted instead of overwriting.
// A correction rewrites what may change (result, unit, school, when the test was taken) and who
// changed it (changed_by).
import type { Knex } from 'knex';
import { TidemarkError } from '../../../shared/errors';
import type { FitnessResultState } from '../types';
import { RESULTS, rowOf } from './rows';

export async function insertResult(trx: Knex.Transaction, s: FitnessResultState): Promise<void> {
  await trx(RESULTS).insert(rowOf(s));
}

export async function updateResult(trx: Knex.Transaction, s: FitnessResultState, previousVersion: number): Promise<void> {
  const n = await trx(RESULTS)
    .where({ data_id: s.dataId, version: previousVersion })
    .update({
      result: s.result,
      unit: s.unit,
      school_id: s.schoolId,
      version: s.version,
      updated_at: s.updatedAt,
      changed_by: s.changedBy,
      measured_at: s.measuredAt ?? null,
    });
  if (n !== 1)
    throw new TidemarkError('VERSION_CONFLICT', 'the result changed concurrently; reload and retry', { details: { id: String(s.dataId) } });
}
