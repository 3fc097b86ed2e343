// Each fitness shard database records which shard it is. Start-up compares it with the configured
// shard order, so a reordered FITNESS_SHARD_DATABASES fails fast instead of mis-routing writes.
import type { KnexMigration } from '../types';

export const m001ShardIdentity: KnexMigration = {
  name: '001_shard_identity',
  async up(db) {
    await db.schema.createTable('shard_identity', (t) => {
      t.tinyint('singleton').unsigned().primary().defaultTo(1);
      t.integer('shard_index').unsigned().notNullable();
      t.string('shard_database', 64).notNullable();
      t.specificType('created_at', 'DATETIME(3)').notNullable().defaultTo(db.raw('CURRENT_TIMESTAMP(3)'));
    });
  },
  async down(db) {
    await db.schema.dropTable('shard_identity');
  },
};
