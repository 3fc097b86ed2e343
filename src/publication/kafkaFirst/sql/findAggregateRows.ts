// SQL: erasure's read-only searches of event_publications (every state): the aggregates whose event
// data names a person, and how many rows of some aggregates, or naming the person, remain.
// Non-locking reads; index and JSON scan as in src/infra/sql/aggregateRows.ts.
import type { Knex } from 'knex';
import { aggregatesNamingOf, countAggregateRowsOf, type NamedIn } from '../../../infra/sql/aggregateRows';

export function publicationAggregatesNaming(db: Knex, domain: string, field: string, value: string): Promise<string[]> {
  return aggregatesNamingOf(db, 'event_publications', domain, field, value);
}

export function countPublicationAggregateRows(db: Knex, domain: string, aggregateIds: readonly string[], named: NamedIn): Promise<number> {
  return countAggregateRowsOf(db, 'event_publications', domain, aggregateIds, named);
}
