// The W3C traceparent of the write that created a publication row (outbox_events and
// event_publications, identical on MySQL/MariaDB and PostgreSQL): the relay continues that trace for
// its send and passes it on in the Kafka message's headers, so one trace shows a write from the
// mutation to the read model (docs/operators.md, "Traces"). NULL when tracing was off.
// `traceparent` is 55 characters (version-traceid-spanid-flags); 64 leaves room for future versions.
import type { Knex } from 'knex';

const TABLES = ['outbox_events', 'event_publications'];

export async function addPublicationTraceparent(db: Knex): Promise<void> {
  for (const t of TABLES) await db.schema.alterTable(t, (tb) => void tb.string('traceparent', 64).nullable());
}

export async function dropPublicationTraceparent(db: Knex): Promise<void> {
  for (const t of TABLES) await db.schema.alterTable(t, (tb) => void tb.dropColumn('traceparent'));
}
