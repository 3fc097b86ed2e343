// Who placed each order, and whose idempotency key it is.
//
// `changed_by` is the token subject that placed the order (orders have one version); NULL for orders
// placed before this migration. It is not in the OrderPlaced event (schemaVersion 1 unchanged), so
// the reconciler's rebuilt events stay byte-identical.
//
// Idempotency keys become unique per caller: `idempotency_owner` (the token subject) joins the unique
// constraint, so another principal reusing a key places an order of its own instead of receiving the
// first caller's order. Existing orders move to owner '' (legacy), which no token subject can be.
//
// Dialect: PostgreSQL, inside the migration's transaction. Adding a column with a constant default is
// metadata only (PostgreSQL 11+); building the new unique index scans orders once while holding the
// ALTER's lock, so placing orders waits for it; the old constraint goes only once the new one exists.
import type { Knex } from 'knex';
import type { KnexMigration } from '../types';

async function refuseSharedKeys(db: Knex): Promise<void> {
  const r = await db.raw<{ rows: unknown[] }>('SELECT idempotency_key FROM orders GROUP BY idempotency_key HAVING COUNT(*) > 1 LIMIT 1');
  if (r.rows.length > 0) throw new Error('cannot undo 010_order_ownership: several callers placed orders with the same idempotency key');
}

export const m010OrderOwnership: KnexMigration = {
  name: '010_order_ownership',
  async up(db) {
    await db.raw(
      "ALTER TABLE orders ADD COLUMN idempotency_owner varchar(255) NOT NULL DEFAULT '', ADD COLUMN changed_by varchar(255) NULL",
    );
    await db.raw('ALTER TABLE orders ADD CONSTRAINT orders_idempotency_owner_key_uq UNIQUE (idempotency_owner, idempotency_key)');
    await db.raw('ALTER TABLE orders DROP CONSTRAINT orders_idempotency_key_uq');
  },
  async down(db) {
    await refuseSharedKeys(db);
    await db.raw('ALTER TABLE orders ADD CONSTRAINT orders_idempotency_key_uq UNIQUE (idempotency_key)');
    await db.raw('ALTER TABLE orders DROP CONSTRAINT orders_idempotency_owner_key_uq');
    await db.raw('ALTER TABLE orders DROP COLUMN changed_by, DROP COLUMN idempotency_owner');
  },
};
