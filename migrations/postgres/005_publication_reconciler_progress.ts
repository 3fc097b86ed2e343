// Progress of the publication reconciler: the (created_at, order_id) position up to which every order
// has either a publication row or evidence of delivery. Each pass starts after it, so delivered orders
// (which never get a row) are examined once instead of on every pass. The row is locked (FOR UPDATE
// SKIP LOCKED) by the pass that uses it, so two reconciler processes never work the same range.
import type { KnexMigration } from '../types';

export const m005PublicationReconcilerProgress: KnexMigration = {
  name: '005_publication_reconciler_progress',
  async up(db) {
    await db.schema.createTable('publication_reconciler_progress', (t) => {
      t.string('scope', 64).primary();
      t.timestamp('scanned_created_at', { useTz: true, precision: 3 }).notNullable();
      t.uuid('scanned_order_id').notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(db.raw('CURRENT_TIMESTAMP(3)'));
    });
  },
  async down(db) {
    await db.schema.dropTable('publication_reconciler_progress');
  },
};
