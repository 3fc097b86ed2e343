// Who wrote what, and whose idempotency key it is, on each fitness shard.
//
// `changed_by` on fitness_results is the token subject that wrote the row's current version. The
// deletion log keeps the last live state, so its `changed_by` is who wrote that state and
// `deleted_by` who wrote the tombstone. Rows written before this migration have NULL (unknown).
// Neither column is in any event: events stay schemaVersion 1 and the reconciler's rebuilt events
// stay byte-identical.
//
// Idempotency keys become unique per caller: `owner` (the token subject) joins the primary key, so
// another principal reusing a key claims a key of its own instead of receiving the first caller's
// dataId. Existing keys move to owner '' (legacy), which no token subject can be: they are kept until
// retention deletes them, but no caller replays them any more.
//
// Dialect: MariaDB/MySQL. Swapping the primary key rebuilds fitness_idempotency_keys (one statement,
// in place where the server can); the table holds only the keys of the retention window. VARCHAR(255)
// + VARCHAR(128) in utf8mb4 is 1532 bytes of key, within InnoDB's 3072 (DYNAMIC rows).
import type { Knex } from 'knex';
import type { KnexMigration } from '../types';

async function refuseSharedKeys(db: Knex): Promise<void> {
  const [rows] = (await db.raw(
    'SELECT idempotency_key FROM fitness_idempotency_keys GROUP BY idempotency_key HAVING COUNT(*) > 1 LIMIT 1',
  )) as [{ idempotency_key: string }[]];
  if (rows.length > 0)
    throw new Error(
      'cannot undo 007_write_ownership: several callers hold the same idempotency key; delete the newer duplicates from fitness_idempotency_keys first',
    );
}

export const m007WriteOwnership: KnexMigration = {
  name: '007_write_ownership',
  async up(db) {
    await db.raw('ALTER TABLE fitness_results ADD COLUMN changed_by VARCHAR(255) NULL');
    await db.raw('ALTER TABLE fitness_result_deletions ADD COLUMN changed_by VARCHAR(255) NULL, ADD COLUMN deleted_by VARCHAR(255) NULL');
    await db.raw(
      "ALTER TABLE fitness_idempotency_keys ADD COLUMN owner VARCHAR(255) NOT NULL DEFAULT '' FIRST, DROP PRIMARY KEY, ADD PRIMARY KEY (owner, idempotency_key)",
    );
  },
  async down(db) {
    await refuseSharedKeys(db);
    await db.raw('ALTER TABLE fitness_idempotency_keys DROP PRIMARY KEY, ADD PRIMARY KEY (idempotency_key), DROP COLUMN owner');
    await db.raw('ALTER TABLE fitness_result_deletions DROP COLUMN deleted_by, DROP COLUMN changed_by');
    await db.raw('ALTER TABLE fitness_results DROP COLUMN changed_by');
  },
};
