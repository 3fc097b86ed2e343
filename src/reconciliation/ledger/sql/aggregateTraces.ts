// SQL: where the reconciliation ledger can name an aggregate, and the read-only count of rows that
// still do (an erasure's verification, src/erasure/stores/ledgerErasure.ts). An id appears as
//   - an exact column: discrepancies', repairs' and quarantine rows' aggregate_id (indexed, 014);
//   - a token inside free text: notes, reasons, error summaries, a repair's event id
//     ('fitness-result-900001-v2'): the id bounded by anything that is not a letter, digit or '_';
//   - a string value inside a JSON column (scope, revisions, counts, a rebuild's validation): the
//     quoted id exactly, so the number 12 in a count never matches the id '12'.
// The subject's own id is searched only as a JSON string value: free text is full of small numbers
// (versions, row counts) that would match a numeric user id and never clear.
// reconciliation_scopes and reconciliation_leases hold scope keys and owners only (campaigns, hours):
// never an aggregate, so they are not searched.
//
// Dialect: PostgreSQL ARE regular expressions (~). Every statement is filtered by domain (ids are
// domain-scoped: order 12 is not result 12). The text and JSON predicates scan the domain's rows of a
// table; the ledger is bounded by its retention (pruneLedger.ts), and an erasure is rare, so a
// sequential scan per table per batch of ids is the accepted cost. Reads are plain (no locks).
import type { Knex } from 'knex';
import type { Domain } from '../../../shared/domain';

/** A ledger table and the columns in which it can name an aggregate. */
export interface TracedTable {
  table: string;
  /** aggregate_id holds the id itself (exact match, indexed). */
  exact: boolean;
  text: readonly string[];
  json: readonly string[];
}

export const TRACED_TABLES: readonly TracedTable[] = [
  {
    table: 'reconciliation_runs',
    exact: false,
    text: ['note', 'error_summary'],
    json: ['scope', 'revision_before', 'revision_after', 'counts'],
  },
  { table: 'reconciliation_discrepancies', exact: true, text: [], json: ['scope'] },
  { table: 'reconciliation_repairs', exact: true, text: ['reason', 'event_id', 'outcome_note', 'error_summary'], json: ['scope'] },
  { table: 'projection_rebuilds', exact: false, text: ['reason', 'error_summary'], json: ['scope', 'validation'] },
  { table: 'projection_quarantine', exact: true, text: [], json: [] },
];

/** The names of the tables an erasure searches (its certificate line). */
export const LEDGER_TABLES: readonly string[] = TRACED_TABLES.map((t) => t.table);

/** Ids per statement: bounds the regular expression and the ANY(array). */
export const IDS_PER_STATEMENT = 200;

const escapeRegex = (s: string) => s.replace(/[\\^$.|?*+()[\]{}-]/g, '\\$&');
const alternatives = (ids: readonly string[]) => ids.map(escapeRegex).join('|');
const NOT_WORD = '[^A-Za-z0-9_]';

/** PostgreSQL pattern: any of the ids as a token of free text. */
export const textPattern = (ids: readonly string[]) => `(^|${NOT_WORD})(${alternatives(ids)})(${NOT_WORD}|$)`;
/** PostgreSQL pattern: any of the values as a JSON string value (jsonb::text keeps them quoted). */
export const jsonPattern = (values: readonly string[]) => `"(${alternatives(values)})"`;
/** The same token rule for JavaScript replacement (lookahead, so adjacent tokens are all found). */
export const textRegex = (ids: readonly string[]) => new RegExp(`(^|${NOT_WORD})(${alternatives(ids)})(?=${NOT_WORD}|$)`, 'g');

/**
 * The WHERE clause naming any of `ids` (and `subjectId` in JSON) in one table, with its bindings;
 * undefined when the table has nothing to search for these inputs.
 */
export function tracePredicate(
  t: TracedTable,
  ids: readonly string[],
  subjectId?: string,
): { sql: string; bindings: Knex.RawBinding[] } | undefined {
  const parts: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  if (ids.length && t.exact) {
    parts.push('aggregate_id = ANY(?)');
    bindings.push([...ids]);
  }
  if (ids.length)
    for (const c of t.text) {
      parts.push(`?? ~ ?`);
      bindings.push(c, textPattern(ids));
    }
  const jsonValues = subjectId ? [...ids, subjectId] : [...ids];
  if (jsonValues.length)
    for (const c of t.json) {
      parts.push(`??::text ~ ?`);
      bindings.push(c, jsonPattern(jsonValues));
    }
  return parts.length ? { sql: `(${parts.join(' OR ')})`, bindings } : undefined;
}

/**
 * Rows of every ledger table of the domain that still name one of the aggregates (exact column, free
 * text or JSON) or the subject (JSON): 0 after a complete scrub.
 */
export async function countAggregateTraces(
  db: Knex,
  domain: Domain,
  ids: readonly string[],
  subjectId?: string,
): Promise<{ found: number; byTable: Record<string, number> }> {
  const byTable: Record<string, number> = {};
  let found = 0;
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) chunks.push(ids.slice(i, i + IDS_PER_STATEMENT));
  if (!chunks.length && subjectId) chunks.push([]);
  for (const t of TRACED_TABLES) {
    byTable[t.table] = 0;
    for (const [i, chunk] of chunks.entries()) {
      // The subject is searched once per table, with the first chunk.
      const p = tracePredicate(t, chunk, i === 0 ? subjectId : undefined);
      if (!p) continue;
      const r = await db.raw(`SELECT count(*) AS n FROM ?? WHERE domain = ? AND ${p.sql}`, [t.table, domain, ...p.bindings]);
      const n = Number((r.rows as { n: string }[])[0]?.n ?? 0);
      byTable[t.table] += n;
      found += n;
    }
  }
  return { found, byTable };
}
