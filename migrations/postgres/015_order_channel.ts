// The sales channel an order came through (event schema version 2: data.channel), in lower case as
// the event carries it ('web', 'mobile', 'store', 'api': ORDER_CHANNELS in
// src/domains/orders/eventContract.ts). NULL = the client did not say, and every order placed before
// this migration. The CHECK keeps the column to the contract's values, so a rebuilt event always decodes.
//
// Dialect: PostgreSQL, inside the migration's transaction. A nullable column without a default is
// metadata only; the CHECK constraint is validated by one scan of orders under the ALTER's lock
// (placing orders waits for it; the column is NULL everywhere, so the scan is short).
import type { KnexMigration } from '../types';

export const m015OrderChannel: KnexMigration = {
  name: '015_order_channel',
  async up(db) {
    await db.raw(
      "ALTER TABLE orders ADD COLUMN channel varchar(16) NULL CONSTRAINT orders_channel_ck CHECK (channel IN ('web', 'mobile', 'store', 'api'))",
    );
  },
  async down(db) {
    await db.raw('ALTER TABLE orders DROP COLUMN channel');
  },
};
