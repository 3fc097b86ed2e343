// SQL: delete a domain's event_publications rows of some aggregates in every state (NOT_PUBLISHED,
// PUBLISHED, DEAD_LETTER): an erasure removes every copy of an erased person's events. Bounded chunks
// on the (aggregate_id) index; locking as in src/infra/sql/aggregateRows.ts.
import type { Knex } from 'knex';
import { deleteAggregateRowsOf } from '../../../infra/sql/aggregateRows';

export async function deleteAggregateRows(db: Knex, domain: string, aggregateIds: readonly string[]): Promise<number> {
  return deleteAggregateRowsOf(db, 'event_publications', domain, aggregateIds);
}
