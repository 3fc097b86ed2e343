// The outbox strategy of the Publisher port: the business rows and their events commit in one local
// transaction on the caller's store (a fitness shard on MySQL, or PostgreSQL); a relay publishes
// them later (src/relay/outbox). Works on any knex store that has the outbox_events table.
import type { Knex } from 'knex';
import type { PublicationOutcome, Publisher, UnitOfWork } from '../publisher';
import type { Clock } from '../../shared/clock';
import { stateChangeOf, type StateChangeSink } from '../stateChanges/stateChange';
import { withTransactionSpan } from '../transactionSpan';
import { appendOutboxEvents } from './appendOutboxEvents';
import type { TopicOf } from './outboxRow';

export interface OutboxPublisherOptions {
  topicOf: TopicOf;
  /** Transaction isolation of the business transaction (engine default when unset). */
  isolationLevel?: Knex.IsolationLevels;
  /** Where each new publication's first state (NEW) is reported once its transaction committed. */
  stateChanges: StateChangeSink;
  clock: Clock;
}

export function outboxPublisher(o: OutboxPublisherOptions): Publisher {
  async function commit<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<UnitOfWork<T>>) {
    const committed = await withTransactionSpan(db, 'outbox', () =>
      db.transaction(
        async (trx) => {
          const { result, events } = await work(trx);
          await appendOutboxEvents(trx, events, o.topicOf);
          return { result, events };
        },
        o.isolationLevel ? { isolationLevel: o.isolationLevel } : undefined,
      ),
    );
    // Only a committed row is a publication: the first state is reported after the commit.
    const at = o.clock.now();
    o.stateChanges.emit(committed.events.map((e) => stateChangeOf(e, null, 'NEW', 0, at)));
    const publications: PublicationOutcome[] = committed.events.map((e) => ({ eventId: e.eventId, state: 'NEW' }));
    return { result: committed.result, publications };
  }
  // The outbox row is a second write, so a single-write unit still needs the transaction.
  return { strategy: 'outbox', commit, commitSingleWrite: commit };
}
