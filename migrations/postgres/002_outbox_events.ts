// The orders store's outbox, for a domain configured with the outbox strategy
// (ORDERS_PUBLICATION_STRATEGY=outbox). Same table as on the fitness shards:
// see migrations/outboxEventsTable.ts.
import type { KnexMigration } from '../types';
import { createOutboxEventsTable } from '../outboxEventsTable';

export const pg002OutboxEvents: KnexMigration = {
  name: '002_outbox_events',
  up: (db) => createOutboxEventsTable(db),
  async down(db) {
    await db.schema.dropTableIfExists('outbox_events');
  },
};
