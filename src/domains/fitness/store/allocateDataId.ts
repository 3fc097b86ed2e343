// SQL: allocate shard-local sequence numbers for new dataIds.
//
// Locking: an INSERT into an AUTO_INCREMENT table. InnoDB hands out the values under its short
// auto-increment lock (released at the end of the statement with innodb_autoinc_lock_mode 1 or 2),
// not a row lock held to commit, so concurrent writers on one shard do not serialise on it. A rolled
// back transaction leaves a gap in the sequence, which is harmless: ids are unique, not dense.
// The allocation rows are kept, so the counter never restarts below a used value (MySQL 5.7
// recomputed it from MAX() at restart).
//
// Several at once (a write group, see ../recordGroups.ts): one multi-row INSERT ... RETURNING id on
// MariaDB (10.5+), which reports exactly the values it generated. MySQL has no RETURNING and only
// promises consecutive values per statement in some lock modes, so there each value is its own
// single-row INSERT, still inside the group's one transaction.
import type { Knex } from 'knex';
import { DATA_IDS } from './rows';

const PARSE_ERROR = 1064;
/** Learned on the first group: this server has no INSERT ... RETURNING (MySQL). */
let returningUnsupported = false;

export async function allocateLocalSequence(trx: Knex.Transaction): Promise<number> {
  const [id] = (await trx(DATA_IDS).insert({})) as number[];
  return Number(id);
}

export async function allocateLocalSequences(trx: Knex.Transaction, n: number): Promise<number[]> {
  if (n === 1) return [await allocateLocalSequence(trx)];
  if (!returningUnsupported) {
    try {
      const [rows] = (await trx.raw(`INSERT INTO ?? () VALUES ${Array(n).fill('()').join(', ')} RETURNING id`, [DATA_IDS])) as [{ id: number | string }[]];
      return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    } catch (err) {
      // A parse error fails only the statement (the transaction goes on), so fall through.
      if ((err as { errno?: number }).errno !== PARSE_ERROR) throw err;
      returningUnsupported = true;
    }
  }
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(await allocateLocalSequence(trx));
  return ids;
}
