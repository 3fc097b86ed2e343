// SQL: an erasure's scrub of the reconciliation ledger (src/erasure/stores/ledgerErasure.ts). For the
// erased aggregates of one domain, in one transaction:
//   - projection_quarantine rows of them are deleted (their digests stand for a result's content);
//   - discrepancies and repairs naming them get the caller's marker (erasedMarker: 'erased:' + keyed
//     hash) in aggregate_id, so the audit trail keeps its shape and counts but names nobody;
//     discrepancies also lose their digests (the stored snapshot of the content); unresolved ones
//     become RESOLVED with resolution ERASED (nothing is left to repair);
//   - every other mention (free text, JSON string values; where: aggregateTraces.ts) is replaced by
//     the same marker; the subject's id in JSON values by the subject's marker.
// Idempotent: a second call finds nothing to change. Resumable: a crash rolls the transaction back.
//
// Locking: READ COMMITTED. The exact-column UPDATEs lock the rows they change (index
// reconciliation_*_aggregate_idx, migration 014); the text/JSON rows are read FOR UPDATE and rewritten
// by primary key, so a reconciliation run finishing meanwhile waits for this transaction rather than
// overwriting a scrubbed note. The marker in aggregate_id keeps reconciliation_discrepancies_open_uq
// satisfied: the same UPDATE resolves the row.
import type { Knex } from 'knex';
import type { Domain } from '../../../shared/domain';
import { IDS_PER_STATEMENT, TRACED_TABLES, textRegex, tracePredicate, type TracedTable } from './aggregateTraces';

export { countAggregateTraces, LEDGER_TABLES } from './aggregateTraces';

/** An id and what stands for it once erased (computed by the caller: erasedMarker of src/shared/keyedHash.ts). */
export interface MarkedId {
  id: string;
  marker: string;
}

export interface ScrubRequest {
  domain: Domain;
  aggregates: readonly MarkedId[];
  /** The subject (a student's user id): replaced where it appears as a JSON value. */
  subject?: MarkedId;
  at: Date;
}

/** The resolution an erased aggregate's discrepancy gets. */
export const ERASED_RESOLUTION = 'ERASED';

/** Replaces the ids by their markers in one JSON value: string values equal to an id only. */
function scrubJson(v: unknown, markers: ReadonlyMap<string, string>): unknown {
  if (typeof v === 'string') return markers.get(v) ?? v;
  if (Array.isArray(v)) return v.map((x) => scrubJson(x, markers));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrubJson(x, markers)]));
  return v;
}

async function scrubExact(trx: Knex.Transaction, domain: Domain, chunk: readonly MarkedId[], at: Date): Promise<number> {
  const ids = chunk.map((c) => c.id);
  const markers = chunk.map((c) => c.marker);
  let affected = await trx('projection_quarantine').where({ domain }).whereIn('aggregate_id', ids).delete();
  const d = await trx.raw(
    `UPDATE reconciliation_discrepancies t
        SET aggregate_id = m.marker, source_digest = NULL, target_digest = NULL,
            resolution = CASE WHEN t.status = 'RESOLVED' THEN t.resolution ELSE ? END,
            resolved_at = CASE WHEN t.status = 'RESOLVED' THEN t.resolved_at ELSE ? END,
            status = 'RESOLVED'
       FROM unnest(?::text[], ?::text[]) AS m(id, marker)
      WHERE t.domain = ? AND t.aggregate_id = m.id`,
    [ERASED_RESOLUTION, at, ids, markers, domain],
  );
  affected += d.rowCount ?? 0;
  const r = await trx.raw(
    `UPDATE reconciliation_repairs t SET aggregate_id = m.marker, updated_at = ?
       FROM unnest(?::text[], ?::text[]) AS m(id, marker)
      WHERE t.domain = ? AND t.aggregate_id = m.id`,
    [at, ids, markers, domain],
  );
  return affected + (r.rowCount ?? 0);
}

async function scrubMentions(
  trx: Knex.Transaction,
  t: TracedTable,
  req: ScrubRequest,
  chunk: readonly MarkedId[],
  first: boolean,
): Promise<number> {
  const subject = first ? req.subject : undefined;
  const ids = chunk.map((c) => c.id);
  const p = tracePredicate({ ...t, exact: false }, ids, subject?.id);
  if (!p || (!t.text.length && !t.json.length)) return 0;
  const rows = (
    await trx.raw(`SELECT id, ${[...t.text, ...t.json].map(() => '??').join(', ')} FROM ?? WHERE domain = ? AND ${p.sql} FOR UPDATE`, [
      ...t.text,
      ...t.json,
      t.table,
      req.domain,
      ...p.bindings,
    ])
  ).rows as Record<string, unknown>[];
  const textMarkers = new Map(chunk.map((c) => [c.id, c.marker]));
  const jsonMarkers = new Map(textMarkers);
  if (subject) jsonMarkers.set(subject.id, subject.marker);
  const re = ids.length ? textRegex(ids) : undefined;
  for (const row of rows) {
    const patch: Record<string, unknown> = {};
    for (const c of t.text)
      if (typeof row[c] === 'string' && re)
        patch[c] = (row[c] as string).replace(re, (_m, pre: string, id: string) => pre + textMarkers.get(id)!);
    for (const c of t.json) if (row[c] !== null && row[c] !== undefined) patch[c] = JSON.stringify(scrubJson(row[c], jsonMarkers));
    await trx(t.table).where({ id: row.id }).update(patch);
  }
  return rows.length;
}

/** Scrubs the ledger of the erased aggregates (and the subject's id in JSON values); returns the rows changed or deleted. */
export async function scrubAggregates(db: Knex, req: ScrubRequest): Promise<number> {
  return db.transaction(async (trx) => {
    let affected = 0;
    const chunks: MarkedId[][] = [];
    for (let i = 0; i < req.aggregates.length; i += IDS_PER_STATEMENT) chunks.push(req.aggregates.slice(i, i + IDS_PER_STATEMENT));
    if (!chunks.length && req.subject) chunks.push([]);
    for (const [i, chunk] of chunks.entries()) {
      if (chunk.length) affected += await scrubExact(trx, req.domain, chunk, req.at);
      for (const t of TRACED_TABLES) affected += await scrubMentions(trx, t, req, chunk, i === 0);
    }
    return affected;
  });
}
