// SQL: append events to the outbox inside the caller's transaction.
//
// Locking: a plain INSERT on the caller's transaction `trx` (never a connection of its own), so the
// outbox rows commit or roll back together with the business rows they describe. The insert takes
// only the new rows' locks; it does not wait for relays, whose claims lock existing rows only (and
// run at READ COMMITTED, so they hold no gap locks that could block this insert).
// The UNIQUE event_id makes a second append of the same (aggregate, version) fail the whole
// transaction: a version is published from exactly one committed write.
// created_at defaults to the database clock, the same clock leases and retries use.
import type { Knex } from 'knex';
import type { DomainEvent } from '../event';
import { OUTBOX_TABLE, outboxInsertOf, type TopicOf } from './outboxRow';

export async function appendOutboxEvents(trx: Knex.Transaction, events: DomainEvent[], topicOf: TopicOf): Promise<void> {
  if (events.length === 0) return;
  await trx(OUTBOX_TABLE).insert(events.map((e) => outboxInsertOf(e, topicOf(e))));
}
