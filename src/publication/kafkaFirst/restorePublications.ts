// The publication reconciler's transition on event_publications: a missing row restored as
// NOT_PUBLISHED (the very event the direct path would have sent, so the relay delivers it). The rows
// commit with the reconciler's checkpoint in its transaction, so their notices (first seen: from null)
// are collected and go out in one message only after that commit (end()); the publication layer
// builds and emits them, like every other notice of this table.
import type { Knex } from 'knex';
import type { Topics } from '../../infra/kafka/fromKafka';
import type { Clock } from '../../shared/clock';
import type { DomainEvent } from '../event';
import { stateChangeOf, type StateChange, type StateChangeSink } from '../stateChanges/stateChange';
import { publicationRowFor } from './publicationRow';
import { upsertNotPublished } from './upsertNotPublished';

export interface PublicationRestore {
  /** Inserts the event's NOT_PUBLISHED row on `trx` unless one exists; true when it was inserted. */
  restore(trx: Knex, event: DomainEvent, topics: Topics): Promise<boolean>;
  /** The transaction committed: notifies the restored rows. */
  end(): void;
}

export function publicationRestore(notices: StateChangeSink | undefined, clock: Clock): PublicationRestore {
  const changes: StateChange[] = [];
  return {
    async restore(trx, event, topics) {
      const up = await upsertNotPublished(trx, publicationRowFor(event, topics, 'RECONCILER'));
      if (up.inserted) changes.push(stateChangeOf(event, null, 'NOT_PUBLISHED', 0, clock.now()));
      return up.inserted;
    },
    end() {
      notices?.emit(changes);
    },
  };
}
