// SQL: allocate the next shard-local sequence number for a new dataId, and read the shard's clock.
//
// Locking: an INSERT into an AUTO_INCREMENT table. InnoDB hands out the value under its short
// auto-increment lock (released at the end of the statement with innodb_autoinc_lock_mode 1 or 2),
// not a row lock held to commit, so concurrent writers on one shard do not serialise on it. A rolled
// back transaction leaves a gap in the sequence, which is harmless: ids are unique, not dense.
// The allocation row is kept, so the counter never restarts below a used value (MySQL 5.7 recomputed
// it from MAX() at restart).
//
// Dialects: MariaDB (10.5+) returns the id and NOW(3) from the INSERT itself (`RETURNING`), one round
// trip; MySQL 8 has no RETURNING, so it takes the insert id and a separate `SELECT NOW(3)`, two. Both
// read the clock inside the transaction, as `shardNow` does (event times are the source's clock).
import type { Knex } from 'knex';
import { DATA_IDS, shardNow } from './rows';

export interface Allocation {
  sequence: number;
  now: Date;
}

export async function allocateLocalSequence(trx: Knex.Transaction, insertReturning: boolean): Promise<Allocation> {
  if (insertReturning) {
    const [rows] = (await trx.raw('INSERT INTO ?? () VALUES () RETURNING local_seq, NOW(3) AS now', [DATA_IDS])) as [
      { local_seq: number; now: Date }[],
    ];
    return { sequence: Number(rows[0]!.local_seq), now: new Date(rows[0]!.now) };
  }
  const now = await shardNow(trx);
  const [id] = (await trx(DATA_IDS).insert({})) as number[];
  return { sequence: Number(id), now };
}
