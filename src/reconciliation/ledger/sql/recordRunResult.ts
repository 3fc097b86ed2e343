// SQL: store what a run found, in one short transaction: finish the run row, upsert each discrepancy
// (at most one unresolved row per aggregate, enforced by the partial unique index
// reconciliation_discrepancies_open_uq), and resolve the scope's unresolved discrepancies that this
// run no longer sees (only kinds the run's level can see; never aggregates it left to the grace rule;
// never those being repaired: their repair's verification settles them, with its own resolution),
// and, for a campaign or an order hour, the scope's registry row (a CLEAN CONTENT run verifies it).
//
// Locking: INSERT ... ON CONFLICT takes the row lock of an existing unresolved discrepancy, so two
// runs of one scope serialise per aggregate instead of creating two rows; the resolving UPDATE locks
// only the rows it changes. Status is never downgraded here: a discrepancy being repaired
// (REPAIRING) keeps its status when seen again; only its facts are refreshed.
import type { Knex } from 'knex';
import type { DiscrepancyKind, Discrepancy, ReconcileLevel } from '../../model';
import { isRegisteredKind, scopeJson, scopeKey, type Scope } from '../../scope';
import { recordScopeRun } from './scopeRegistry';
import { ERASED_RESOLUTION } from './scrubAggregates';
import type { CompareResult } from '../../compareScope';
import { discrepancyOf, type DiscrepancyRecord } from '../records';

const SEEN_AT: Record<ReconcileLevel, DiscrepancyKind[]> = {
  COUNTS: [],
  IDS: ['MISSING', 'STALE_VERSION', 'DELETION_NOT_APPLIED', 'UNEXPECTED_ROW'],
  CONTENT: ['MISSING', 'STALE_VERSION', 'DELETION_NOT_APPLIED', 'UNEXPECTED_ROW', 'CONTENT_MISMATCH'],
};

function rowOf(scope: Scope, d: Discrepancy, runId: number, at: Date) {
  return {
    domain: scope.domain,
    scope_key: scopeKey(scope),
    scope: JSON.stringify(scopeJson(scope)),
    aggregate_id: d.aggregateId.slice(0, 128),
    kind: d.kind,
    status: 'OPEN',
    source_version: d.sourceVersion,
    target_version: d.targetVersion,
    source_digest: d.sourceDigest,
    target_digest: d.targetDigest,
    differing_fields: d.differingFields,
    first_seen_at: at,
    last_seen_at: at,
    seen_count: 1,
    first_run_id: runId,
    last_run_id: runId,
  };
}

export async function recordRunResult(
  db: Knex,
  runId: number,
  scope: Scope,
  r: CompareResult,
  finishedAt: Date,
  durationMs: number,
): Promise<DiscrepancyRecord[]> {
  return db.transaction(async (trx) => {
    const stored: DiscrepancyRecord[] = [];
    for (let i = 0; i < r.discrepancies.length; i += 500) {
      const rows = r.discrepancies.slice(i, i + 500).map((d) => rowOf(scope, d, runId, finishedAt));
      const insert = trx('reconciliation_discrepancies').insert(rows).toSQL();
      const res = await trx.raw<{ rows: Record<string, unknown>[] }>(
        `${insert.sql} ON CONFLICT (domain, aggregate_id) WHERE status <> 'RESOLVED' DO UPDATE SET
           kind = EXCLUDED.kind, scope_key = EXCLUDED.scope_key, scope = EXCLUDED.scope,
           source_version = EXCLUDED.source_version, target_version = EXCLUDED.target_version,
           source_digest = EXCLUDED.source_digest, target_digest = EXCLUDED.target_digest,
           differing_fields = EXCLUDED.differing_fields, last_seen_at = EXCLUDED.last_seen_at,
           last_run_id = EXCLUDED.last_run_id, seen_count = reconciliation_discrepancies.seen_count + 1
         RETURNING *`,
        insert.bindings as readonly unknown[] as Knex.RawBinding[],
      );
      stored.push(...res.rows.map(discrepancyOf));
    }
    const completed = r.outcome === 'CLEAN' || r.outcome === 'DISCREPANCIES';
    const kinds = completed ? SEEN_AT[r.levelReached] : [];
    if (completed && r.erased?.length)
      // Erased aggregates the run left out (expected absent): their open discrepancies are settled as
      // ERASED rather than NOT_FOUND_AGAIN, so the trail says why (../../erasedFilter.ts).
      await trx('reconciliation_discrepancies')
        .where({ domain: scope.domain, status: 'OPEN' })
        .whereIn('aggregate_id', r.erased)
        .update({ status: 'RESOLVED', resolution: ERASED_RESOLUTION, resolved_at: finishedAt });
    if (kinds.length) {
      const keep = [
        ...r.discrepancies.map((d) => d.aggregateId),
        ...r.youngIds,
        ...(r.excluded?.changedAfterSnapshot ?? []),
        ...(r.excluded?.inFlight ?? []),
      ];
      await trx('reconciliation_discrepancies')
        .where({ domain: scope.domain, scope_key: scopeKey(scope), status: 'OPEN' })
        .whereIn('kind', kinds)
        .whereRaw('NOT (aggregate_id = ANY(?::text[]))', [keep])
        .update({ status: 'RESOLVED', resolution: 'NOT_FOUND_AGAIN', resolved_at: finishedAt });
    }
    if (completed && isRegisteredKind(scope)) {
      const aggregates = (r.revisionAfter ?? r.revisionBefore)?.aggregates ?? 0;
      const startedAt = new Date(finishedAt.getTime() - durationMs);
      const excluded = (r.excluded?.changedAfterSnapshot.length ?? 0) + (r.excluded?.inFlight.length ?? 0);
      await recordScopeRun(trx, scope, {
        runId,
        outcome: r.outcome,
        levelReached: r.levelReached,
        aggregates,
        excluded,
        startedAt,
        finishedAt,
      });
    }
    await trx('reconciliation_runs')
      .where({ id: runId })
      .update({
        level_reached: r.levelReached,
        outcome: r.outcome,
        attempts: r.attempts,
        note: r.note.slice(0, 300),
        revision_before: r.revisionBefore ? JSON.stringify(r.revisionBefore) : null,
        revision_after: r.revisionAfter ? JSON.stringify(r.revisionAfter) : null,
        counts: JSON.stringify(r.counts),
        buckets_compared: r.bucketsCompared,
        buckets_mismatched: r.bucketsMismatched,
        discrepancies_found: r.discrepancies.length,
        excluded_changed: r.excluded?.changedAfterSnapshot.length ?? 0,
        excluded_in_flight: r.excluded?.inFlight.length ?? 0,
        finished_at: finishedAt,
        duration_ms: durationMs,
      });
    return stored;
  });
}

/** Marks a run failed with a safe error summary (never raw exception text). */
export async function failRun(db: Knex, runId: number, code: string, summary: string, finishedAt: Date, durationMs: number): Promise<void> {
  await db('reconciliation_runs')
    .where({ id: runId })
    .update({
      outcome: 'FAILED',
      error_code: code.slice(0, 64),
      error_summary: summary.slice(0, 255),
      finished_at: finishedAt,
      duration_ms: durationMs,
    });
}
