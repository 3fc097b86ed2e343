// SQL: a pseudonymisation of event_publications rows (every state: NOT_PUBLISHED, PUBLISHED,
// DEAD_LETTER): one field of the event data of some aggregates changes from one value to another, in
// place (an erased customer's id becomes its pseudonym; the rest of the event stays). A relay that
// publishes the row afterwards publishes the pseudonymised event. Bounded chunks on the (aggregate_id)
// index; locking and dialect as in src/infra/sql/aggregateRows.ts.
import type { Knex } from 'knex';
import { replaceDataFieldOf } from '../../../infra/sql/aggregateRows';

export function replaceDataField(
  db: Knex,
  domain: string,
  aggregateIds: readonly string[],
  field: string,
  from: string,
  to: string,
): Promise<number> {
  return replaceDataFieldOf(db, 'event_publications', domain, aggregateIds, { field, from, to });
}
