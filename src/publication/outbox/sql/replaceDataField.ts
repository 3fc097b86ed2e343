// SQL: a pseudonymisation of outbox_events rows (every state: NEW, PROCESSING, SENT, FAILED, PARKED):
// one field of the event data of some aggregates changes from one value to another, in place (an
// erased customer's id becomes its pseudonym; the rest of the event, its financial facts, stays).
// Bounded chunks on the (aggregate_id) index; locking and dialect as in src/infra/sql/aggregateRows.ts.
import type { Knex } from 'knex';
import { replaceDataFieldOf } from '../../../infra/sql/aggregateRows';
import { OUTBOX_TABLE } from '../outboxRow';

export function replaceDataField(
  db: Knex,
  domain: string,
  aggregateIds: readonly string[],
  field: string,
  from: string,
  to: string,
): Promise<number> {
  return replaceDataFieldOf(db, OUTBOX_TABLE, domain, aggregateIds, { field, from, to });
}
