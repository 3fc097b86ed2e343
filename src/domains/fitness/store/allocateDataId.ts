// SQL: allocate the next shard-local sequence number for a new dataId.
//
// Locking: an INSERT into an AUTO_INCREMENT table. InnoDB hands out the value under its short
// auto-increment lock (released at the end of the statement with innodb_autoinc_lock_mode 1 or 2),
// not a row lock held to commit, so concurrent writers on one shard do not serialise on it. A rolled
// back transaction leaves a gap in the sequence, which is harmless: ids are unique, not dense.
// The allocation row is kept, so the counter never restarts below a used value (MySQL 5.7 recomputed
// it from MAX() at restart).
import type { Knex } from 'knex';
import { DATA_IDS } from './rows';

export async function allocateLocalSequence(trx: Knex.Transaction): Promise<number> {
  const [id] = (await trx(DATA_IDS).insert({})) as number[];
  return Number(id);
}
