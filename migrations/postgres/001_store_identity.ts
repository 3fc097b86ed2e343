// The orders database records what it is, so pointing the gateway at the wrong database fails fast.
import type { KnexMigration } from '../types';

export const m001StoreIdentity: KnexMigration = {
  name: '001_store_identity',
  async up(db) {
    await db.schema.createTable('store_identity', (t) => {
      t.smallint('singleton').primary().defaultTo(1);
      t.string('store', 32).notNullable();
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(db.fn.now());
    });
  },
  async down(db) {
    await db.schema.dropTable('store_identity');
  },
};
