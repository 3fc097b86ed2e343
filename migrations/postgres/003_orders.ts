// Orders: the only table the order transaction writes (kafka-first keeps publication data out of the
// normal path). Line items live in the order row as JSON with canonical decimal strings, so placing an
// order is exactly one INSERT. The idempotency key is unique: a retried request finds its order
// instead of placing a second one; request_hash tells a true retry from a different request that
// reuses the key. created_at comes from the application clock and is the event's createdAt, so the
// reconciler rebuilds byte-identical events from the row alone.
import type { KnexMigration } from '../types';

export const m003Orders: KnexMigration = {
  name: '003_orders',
  async up(db) {
    await db.schema.createTable('orders', (t) => {
      t.uuid('order_id').primary();
      t.string('customer_id', 64).notNullable();
      t.specificType('currency', 'char(3)').notNullable();
      t.jsonb('items').notNullable();
      t.decimal('total', 24, 4).notNullable();
      t.integer('item_count').notNullable();
      t.string('idempotency_key', 128).notNullable().unique('orders_idempotency_key_uq');
      t.specificType('request_hash', 'char(64)').notNullable();
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
    });
    // The reconciler scans by (created_at, order_id) up to its cutoff, in bounded keyset batches.
    await db.raw('CREATE INDEX orders_created_at_idx ON orders (created_at, order_id)');
  },
  async down(db) {
    await db.schema.dropTable('orders');
  },
};
