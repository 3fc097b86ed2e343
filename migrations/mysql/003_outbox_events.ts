// Each fitness shard has its own outbox, written in the same local transaction as the result row:
// no central outbox (a transaction cannot span shards). See migrations/outboxEventsTable.ts.
import type { KnexMigration } from '../types';
import { createOutboxEventsTable } from '../outboxEventsTable';

export const m003OutboxEvents: KnexMigration = {
  name: '003_outbox_events',
  up: (db) => createOutboxEventsTable(db),
  async down(db) {
    await db.schema.dropTableIfExists('outbox_events');
  },
};
