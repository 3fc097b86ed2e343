// The scope of a freshness question, as a filter on publication rows. Pending rows carry the exact
// Kafka message (message_value = toKafkaRecord().value), so a scope on immutable event data
// (data.detectId, data.createdAt, ...) is evaluated on the rows themselves: that also covers
// tombstones whose business row is already gone. Field names come from the domain module's fixed
// list (access.scopeFields, never from the caller) and values are bound parameters; the JSON lookups
// only run on the few rows that the (status, ...) indexes select as not yet published.
// Membership (dataIn) is the caller's read scope: a row counts when data.<field> is one of the listed
// values for ANY listed field (a teacher's schools OR a student's own user id; a customer's id). A
// pending row is a newest version, so its data.schoolId is the school the result is moving to: the
// same latest-version rule the read models apply. Without dataIn every row of the domain counts.
// countPendingRows is the one count both tables' statements (outbox/sql, kafkaFirst/sql) run with it.
import type { Knex } from 'knex';
import { isPostgres as dialectIsPostgres } from '../infra/sql/dialect';
import type { Domain } from './event';

/** A field of event data a scope may name: one of its domain's access.scopeFields. */
export type ScopeField = string;

/** Fields and the values each may take; a row matches when any listed field has one of its values. */
export type DataIn = Readonly<Partial<Record<ScopeField, readonly (string | number)[]>>>;

export interface PendingScope {
  domain: Domain;
  /** data.<field> = value for each entry (ids, codes: fields that never change across versions). */
  dataEquals?: Readonly<Partial<Record<ScopeField, string | number>>>;
  /** data.createdAt within [createdFrom, createdTo). */
  createdFrom?: Date;
  createdTo?: Date;
  /** The caller's scope: data.<field> IN values, OR-ed across fields; {} (or only empty lists): no row. */
  dataIn?: DataIn;
}

export function isPostgres(db: Knex): boolean {
  return dialectIsPostgres(db);
}

/** A field name that is safe inside a JSON path ('$.data.x', '{data,x}'): letters and digits only. */
const SAFE_FIELD = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

function dataField(db: Knex, fields: readonly ScopeField[], field: ScopeField | 'createdAt'): string {
  if (!SAFE_FIELD.test(field) || (field !== 'createdAt' && !fields.includes(field))) throw new TypeError('not a scope field');
  return isPostgres(db) ? `(message_value::jsonb #>> '{data,${field}}')` : `JSON_VALUE(message_value, '$.data.${field}')`;
}

/**
 * Adds the scope's conditions to a query on outbox_events or event_publications. `fields` are the
 * domain's scope fields (its module's access.scopeFields, a fixed list): any other field is refused.
 */
export function applyScope(db: Knex, q: Knex.QueryBuilder, scope: PendingScope, fields: readonly ScopeField[]): Knex.QueryBuilder {
  q.where('domain', scope.domain);
  for (const [field, value] of Object.entries(scope.dataEquals ?? {}) as [ScopeField, string | number | undefined][]) {
    if (value !== undefined) q.whereRaw(`${dataField(db, fields, field)} = ?`, [String(value)]);
  }
  // ISO-8601 UTC strings from toISOString() compare correctly as text.
  if (scope.createdFrom) q.whereRaw(`${dataField(db, fields, 'createdAt')} >= ?`, [scope.createdFrom.toISOString()]);
  if (scope.createdTo) q.whereRaw(`${dataField(db, fields, 'createdAt')} < ?`, [scope.createdTo.toISOString()]);
  if (scope.dataIn) {
    const any = membership(scope.dataIn);
    if (any.length === 0) q.whereRaw('1 = 0');
    else
      q.where((w) => {
        for (const [field, values] of any)
          w.orWhereRaw(`${dataField(db, fields, field)} IN (${values.map(() => '?').join(', ')})`, values.map(String));
      });
  }
  return q;
}

/** The non-empty membership lists, in a stable order (field name, then values as sorted text). */
function membership(d: DataIn): [ScopeField, string[]][] {
  return (Object.entries(d) as [ScopeField, readonly (string | number)[] | undefined][])
    .filter((e): e is [ScopeField, readonly (string | number)[]] => e[1] !== undefined && e[1].length > 0)
    .map(([f, vs]): [ScopeField, string[]] => [f, [...new Set(vs.map(String))].sort()])
    .sort(([a], [b]) => a.localeCompare(b));
}

/** A stable cache key for a scope. */
export function scopeKey(scope: PendingScope): string {
  const eq = Object.entries(scope.dataEquals ?? {})
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  const within = scope.dataIn ? membership(scope.dataIn) : null;
  return JSON.stringify([scope.domain, eq, scope.createdFrom?.getTime() ?? null, scope.createdTo?.getTime() ?? null, within]);
}

/** Pending rows of one status (of one aggregate, when counted per aggregate). */
export interface PendingCountRow {
  aggregateId?: string;
  status: string;
  n: number;
  oldest: Date;
}

/**
 * COUNT and oldest created_at of a publication table's rows in `statuses`, per status (and per
 * aggregate: the listed ids, or 'each' over the whole scope), within the scope. The statement of each
 * table (its statuses, locking and index) is its owner's: outbox/sql and kafkaFirst/sql.
 */
export async function countPendingRows(
  db: Knex,
  table: 'outbox_events' | 'event_publications',
  statuses: readonly string[],
  scope: PendingScope,
  fields: readonly ScopeField[],
  aggregateIds?: string[] | 'each',
): Promise<PendingCountRow[]> {
  if (Array.isArray(aggregateIds) && aggregateIds.length === 0) return [];
  const q = db(table)
    .select('status', db.raw('COUNT(*) AS n'), db.raw('MIN(created_at) AS oldest'))
    .whereIn('status', [...statuses])
    .groupBy('status');
  applyScope(db, q, scope, fields);
  // 'each': per aggregate over the whole scope (a reconciliation's in-flight set; few rows are unsent).
  if (aggregateIds) q.select('aggregate_id').groupBy('aggregate_id');
  if (Array.isArray(aggregateIds)) q.whereIn('aggregate_id', aggregateIds);
  const rows = (await q) as { status: string; n: number | string; oldest: Date | string; aggregate_id?: string }[];
  return rows.map((r) => ({ aggregateId: r.aggregate_id, status: r.status, n: Number(r.n), oldest: new Date(r.oldest) }));
}
