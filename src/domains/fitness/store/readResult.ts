// SQL: the authoritative current state of a result (live row, or its tombstone from the deletion log).
//
// Locking: plain non-locking reads (a consistent snapshot per statement); used for answers and
// tests, never as the basis of a write (writes use selectResultForUpdate).
import type { Knex } from 'knex';
import type { FitnessResultState } from '../types';
import { DELETIONS, RESULTS, stateOf, type ResultRow } from './rows';

export async function readResult(db: Knex, dataId: number): Promise<FitnessResultState | undefined> {
  const live = (await db(RESULTS).where({ data_id: dataId }).first()) as ResultRow | undefined;
  if (live) return stateOf(live);
  const deleted = (await db(DELETIONS).where({ data_id: dataId }).first()) as ResultRow | undefined;
  return deleted ? stateOf(deleted, true) : undefined;
}
