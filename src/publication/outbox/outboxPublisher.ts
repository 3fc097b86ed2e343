// The outbox strategy of the Publisher port: the business rows and their events commit in one local
// transaction on the caller's store (a fitness shard on MySQL, or PostgreSQL); a relay publishes
// them later (src/relay/outbox). Works on any knex store that has the outbox_events table.
import type { Knex } from 'knex';
import type { Publisher, PublicationOutcome, UnitOfWork } from '../publisher';
import { appendOutboxEvents } from './appendOutboxEvents';
import type { TopicOf } from './outboxRow';

export interface OutboxPublisherOptions {
  topicOf: TopicOf;
  /** Transaction isolation of the business transaction (engine default when unset). */
  isolationLevel?: Knex.IsolationLevels;
}

export function outboxPublisher(o: OutboxPublisherOptions): Publisher {
  async function commit<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<UnitOfWork<T>>) {
    return db.transaction(
      async (trx) => {
        const { result, events } = await work(trx);
        await appendOutboxEvents(trx, events, o.topicOf);
        const publications: PublicationOutcome[] = events.map((e) => ({ eventId: e.eventId, state: 'NEW' }));
        return { result, publications };
      },
      o.isolationLevel ? { isolationLevel: o.isolationLevel } : undefined,
    );
  }
  // The outbox row is a second write, so a single-write unit still needs the transaction.
  return { strategy: 'outbox', commit, commitSingleWrite: commit };
}
