// SQL: delete a domain's outbox_events rows of some aggregates in every state (NEW, PROCESSING, SENT,
// FAILED, PARKED): an erasure removes every copy of an erased person's events. Bounded chunks on the
// (aggregate_id) index; locking as in src/infra/sql/aggregateRows.ts.
import type { Knex } from 'knex';
import { deleteAggregateRowsOf } from '../../../infra/sql/aggregateRows';
import { OUTBOX_TABLE } from '../outboxRow';

export async function deleteAggregateRows(db: Knex, domain: string, aggregateIds: readonly string[]): Promise<number> {
  return deleteAggregateRowsOf(db, OUTBOX_TABLE, domain, aggregateIds);
}
