// Upsert of a NOT_PUBLISHED row by its unique event_id (the fallback after failed direct attempts, and
// the reconciler's rebuilt rows).
//
// Conflict handling is "do nothing": an existing row already holds this exact event (same eventId,
// same bytes), and whatever state it is in wins. In particular a PUBLISHED or DEAD_LETTER row is never
// moved back to NOT_PUBLISHED here (only an operator replay does that), and a row currently claimed by
// a relay is not disturbed. PostgreSQL: INSERT .. ON CONFLICT (event_id) DO NOTHING RETURNING.
// MySQL/MariaDB: INSERT .. ON DUPLICATE KEY UPDATE id = id (a no-op update; INSERT IGNORE would also
// swallow unrelated errors such as truncation). The unique index serialises concurrent upserts of one
// event; no other lock is taken. Runs on the caller's connection or transaction (the reconciler passes
// its transaction so rows and its checkpoint commit together).
import type { Knex } from 'knex';
import { nowSql, dialectOf, placeholders, rowsOf } from '../../infra/sql/dialect';
import type { NewPublicationRow, PublicationStatus } from './publicationRow';

export interface UpsertResult {
  inserted: boolean;
  status: PublicationStatus;
}

const COLUMNS = [
  'event_id',
  'domain',
  'aggregate_id',
  'version',
  'topic',
  'message_key',
  'message_value',
  'headers',
  'source',
  'direct_attempts',
  'direct_result',
  'traceparent',
  'status',
  'relay_attempts',
  'replay_count',
  'next_attempt_at',
  'created_at',
];

export async function upsertNotPublished(db: Knex | Knex.Transaction, row: NewPublicationRow): Promise<UpsertResult> {
  const d = dialectOf(db);
  const values = `${placeholders(12)}, 'NOT_PUBLISHED', 0, 0, ${nowSql(d)}, ${nowSql(d)}`;
  const bindings = [
    row.eventId,
    row.domain,
    row.aggregateId,
    row.version,
    row.topic,
    row.record.key,
    row.record.value,
    JSON.stringify(row.record.headers),
    row.source,
    row.directAttempts,
    row.directResult,
    row.traceparent,
  ];
  const insert = `INSERT INTO event_publications (${COLUMNS.join(', ')}) VALUES (${values})`;
  if (d === 'postgres') {
    const r = await db.raw(`${insert} ON CONFLICT (event_id) DO NOTHING RETURNING status`, bindings);
    const created = rowsOf<{ status: PublicationStatus }>(d, r)[0];
    if (created) return { inserted: true, status: created.status };
  } else {
    const [r] = (await db.raw(`${insert} ON DUPLICATE KEY UPDATE id = id`, bindings)) as [{ insertId: number; affectedRows: number }];
    // A fresh row has a new insertId; the no-op update of an existing row reports none.
    if (Number(r.insertId) > 0) return { inserted: true, status: 'NOT_PUBLISHED' };
  }
  const existing = (await db('event_publications').select('status').where({ event_id: row.eventId }).first()) as
    { status: PublicationStatus } | undefined;
  if (!existing) throw new Error('event_publications row neither inserted nor found');
  return { inserted: false, status: existing.status };
}
