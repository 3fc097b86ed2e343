// SQL shared by the publication tables (outbox_events, event_publications) for erasure: find, count
// and delete one domain's rows of some aggregates in EVERY state (an erased aggregate's NEW, SENT,
// FAILED, PARKED, NOT_PUBLISHED and DEAD_LETTER rows all carry the person's event data). Each table's
// owner calls these with its table name (src/publication/{outbox,kafkaFirst}/sql/).
//
// Index: the (aggregate_id) index (MySQL migration 008_erasure_indexes); ids are bound in chunks of
// ID_CHUNK so a statement's IN list and its locks stay small. A search by a field of the event data
// reads message_value as JSON: no index can serve it, so it scans the domain's rows of the table, which
// retention keeps short (SENT/PUBLISHED rows are deleted after hours); erasure is rare and operator
// driven. Locking: the deletes run on the caller's transaction (or autocommit) at READ COMMITTED and
// lock only the matching index records; a relay holding a claimed row makes the delete wait for its
// short mark statement, and a relay marking a row already deleted updates nothing. Reads lock nothing.
// A pseudonymisation rewrites one field of the event data in place (replaceDataFieldOf): same index and
// chunks, same row locks as a delete; only rows whose field still holds the old value are touched.
// Dialect: MySQL/MariaDB JSON_EXTRACT, PostgreSQL jsonb on the text column.
import type { Knex } from 'knex';
import { dialectOf } from './dialect';

export const ID_CHUNK = 500;

/** A field of the event data that names a person, and since when rows no longer count (a returning person). */
export interface NamedIn {
  field: string;
  value: string;
  createdBefore: Date;
}

export function chunks<T>(xs: readonly T[], n = ID_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

const FIELD = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** `data.<field> = value` on the JSON text of message_value, in the table's dialect. */
function dataEquals(db: Knex, field: string, value: string): Knex.Raw {
  if (!FIELD.test(field)) throw new RangeError('not an event data field name');
  return dialectOf(db) === 'postgres'
    ? db.raw("(message_value::jsonb -> 'data' ->> ?) = ?", [field, value])
    : db.raw('JSON_UNQUOTE(JSON_EXTRACT(message_value, ?)) = ?', [`$.data.${field}`, value]);
}

/** Deletes the domain's rows of these aggregates in every state; returns how many. */
export async function deleteAggregateRowsOf(db: Knex, table: string, domain: string, aggregateIds: readonly string[]): Promise<number> {
  let n = 0;
  for (const ids of chunks(aggregateIds)) n += await db(table).where('domain', domain).whereIn('aggregate_id', ids).delete();
  return n;
}

/** The distinct aggregate ids of the domain's rows whose event data names the person (any time). */
export async function aggregatesNamingOf(db: Knex, table: string, domain: string, field: string, value: string): Promise<string[]> {
  const rows = (await db(table)
    .distinct('aggregate_id')
    .where('domain', domain)
    .andWhere(dataEquals(db, field, value))) as {
    aggregate_id: string;
  }[];
  return rows.map((r) => String(r.aggregate_id));
}

/** Rows of the domain for any of these aggregates, or naming the person and created before `named.createdBefore`. */
export async function countAggregateRowsOf(
  db: Knex,
  table: string,
  domain: string,
  aggregateIds: readonly string[],
  named: NamedIn,
): Promise<number> {
  const count = async (q: Knex.QueryBuilder) => Number(((await q.count({ n: '*' })) as { n: number | string }[])[0]?.n ?? 0);
  let n = 0;
  for (const ids of chunks(aggregateIds)) n += await count(db(table).where('domain', domain).whereIn('aggregate_id', ids));
  // Rows of the listed aggregates are counted above; here only rows of other aggregates (a missed one).
  const others = db(table)
    .where('domain', domain)
    .andWhere(dataEquals(db, named.field, named.value))
    .andWhere('created_at', '<', named.createdBefore);
  for (const ids of chunks(aggregateIds)) others.whereNotIn('aggregate_id', ids);
  return n + (await count(others));
}

/**
 * Sets `data.<field>` to `to` on the domain's rows of these aggregates (every state) whose field is
 * `from`; returns how many. First a textual replace of `"<field>":<from as JSON>`, which keeps the
 * stored bytes otherwise identical (an event rebuilt from the pseudonymised source row equals it); then,
 * for a row spelled otherwise (spacing), the JSON functions: PostgreSQL jsonb_set on the text column
 * (re-serialised: key order and spacing may change, values do not), MySQL/MariaDB JSON_SET.
 */
export async function replaceDataFieldOf(
  db: Knex,
  table: string,
  domain: string,
  aggregateIds: readonly string[],
  change: { field: string; from: string; to: string },
): Promise<number> {
  const pg = dialectOf(db) === 'postgres';
  const text = (v: string) => `"${change.field}":${JSON.stringify(v)}`;
  const replaced = db.raw('REPLACE(message_value, ?, ?)', [text(change.from), text(change.to)]);
  const set = pg
    ? db.raw("jsonb_set(message_value::jsonb, ARRAY['data', ?]::text[], to_jsonb(?::text))::text", [change.field, change.to])
    : db.raw('JSON_SET(message_value, ?, ?)', [`$.data.${change.field}`, change.to]);
  let n = 0;
  for (const ids of chunks(aggregateIds))
    for (const message_value of [replaced, set])
      n += await db(table)
        .where('domain', domain)
        .whereIn('aggregate_id', ids)
        .andWhere(dataEquals(db, change.field, change.from))
        .update({ message_value });
  return n;
}
