// SQL: read the current state of a result for a command that will change it.
//
// Locking: SELECT ... FOR UPDATE on the primary key takes the row's exclusive lock until the
// transaction ends, so two corrections of one result serialise and the second sees the first's
// version (and gets VERSION_CONFLICT). When the row is gone, the deletion log is read (also locked)
// so a command on a deleted result is answered with the tombstone's version.
import type { Knex } from 'knex';
import type { FitnessResultState } from '../types';
import { DELETIONS, RESULTS, stateOf, type ResultRow } from './rows';

export async function selectResultForUpdate(trx: Knex.Transaction, dataId: number): Promise<FitnessResultState | undefined> {
  const live = (await trx(RESULTS).where({ data_id: dataId }).forUpdate().first()) as ResultRow | undefined;
  if (live) return stateOf(live);
  const deleted = (await trx(DELETIONS).where({ data_id: dataId }).forUpdate().first()) as ResultRow | undefined;
  return deleted ? stateOf(deleted, true) : undefined;
}
