// SQL: an erasure's pseudonymisation of the reconciliation ledger (mode 'pseudonymise', a customer of
// orders; src/erasure/stores/ledgerErasure.ts). The aggregates are NOT scrubbed: an order stays a
// financial fact, and its discrepancies and repairs keep their ids. Only the subject's id goes: where
// the ledger names it (free text as a token, a JSON string value exactly; the columns of
// aggregateTraces.ts) it becomes the caller's pseudonym, in one transaction. Idempotent: a second call
// finds nothing. countSubjectTraces is the read-only search of verify.
//
// Locking: READ COMMITTED; the rows naming the subject are read FOR UPDATE and rewritten by primary
// key, so a reconciliation run finishing meanwhile waits rather than overwriting a rewritten note.
// Dialect: PostgreSQL ARE (~), filtered by domain; a sequential scan of the domain's rows per table
// (the ledger is bounded by its retention, pruneLedger.ts; an erasure is rare).
import type { Knex } from 'knex';
import type { Domain } from '../../../shared/domain';
import { TRACED_TABLES, textPattern, textRegex, type TracedTable } from './aggregateTraces';

/** The subject's id and its pseudonym (pseudonymOf of src/domains/contract/erasure.ts). */
export interface SubjectPseudonym {
  id: string;
  pseudonym: string;
}

const escapeRegex = (s: string) => s.replace(/[\\^$.|?*+()[\]{}-]/g, '\\$&');

/** The id as a JSON string value in jsonb::text (quoted and escaped as JSON spells it). */
const jsonValuePattern = (id: string) => escapeRegex(JSON.stringify(id));

function predicate(t: TracedTable, id: string): { sql: string; bindings: Knex.RawBinding[] } | undefined {
  const parts: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  for (const c of t.text) {
    parts.push('?? ~ ?');
    bindings.push(c, textPattern([id]));
  }
  for (const c of t.json) {
    parts.push('??::text ~ ?');
    bindings.push(c, jsonValuePattern(id));
  }
  return parts.length ? { sql: `(${parts.join(' OR ')})`, bindings } : undefined;
}

function replaceJson(v: unknown, id: string, to: string): unknown {
  if (typeof v === 'string') return v === id ? to : v;
  if (Array.isArray(v)) return v.map((x) => replaceJson(x, id, to));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replaceJson(x, id, to)]));
  return v;
}

/** Replaces the subject's id by its pseudonym in every ledger row of the domain naming it; returns the rows changed. */
export async function pseudonymiseSubject(db: Knex, domain: Domain, s: SubjectPseudonym): Promise<number> {
  return db.transaction(async (trx) => {
    let affected = 0;
    const re = textRegex([s.id]);
    for (const t of TRACED_TABLES) {
      const p = predicate(t, s.id);
      if (!p) continue;
      const cols = [...t.text, ...t.json];
      const sql = `SELECT id, ${cols.map(() => '??').join(', ')} FROM ?? WHERE domain = ? AND ${p.sql} FOR UPDATE`;
      const rows = (await trx.raw(sql, [...cols, t.table, domain, ...p.bindings])).rows as Record<string, unknown>[];
      for (const row of rows) {
        const patch: Record<string, unknown> = {};
        for (const c of t.text)
          if (typeof row[c] === 'string') patch[c] = (row[c] as string).replace(re, (_m, pre: string) => pre + s.pseudonym);
        for (const c of t.json)
          if (row[c] !== null && row[c] !== undefined) patch[c] = JSON.stringify(replaceJson(row[c], s.id, s.pseudonym));
        await trx(t.table).where({ id: row.id }).update(patch);
      }
      affected += rows.length;
    }
    return affected;
  });
}

/** Rows of every ledger table of the domain that still name the subject (free text or JSON): 0 after a pseudonymisation. */
export async function countSubjectTraces(
  db: Knex,
  domain: Domain,
  subjectId: string,
): Promise<{ found: number; byTable: Record<string, number> }> {
  const byTable: Record<string, number> = {};
  let found = 0;
  for (const t of TRACED_TABLES) {
    const p = predicate(t, subjectId);
    byTable[t.table] = 0;
    if (!p) continue;
    const r = await db.raw(`SELECT count(*) AS n FROM ?? WHERE domain = ? AND ${p.sql}`, [t.table, domain, ...p.bindings]);
    byTable[t.table] = Number((r.rows as { n: string }[])[0]?.n ?? 0);
    found += byTable[t.table]!;
  }
  return { found, byTable };
}
