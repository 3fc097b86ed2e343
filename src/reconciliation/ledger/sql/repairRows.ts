// SQL: the repair audit trail. Every repair is one row written when it is decided (outcome SENT,
// COMPLETED, REFUSED or FAILED) and updated only by its verification (PENDING -> PASSED | FAILED).
//
// Locking: single-row INSERTs and UPDATEs by primary key. Verification may run in two processes at
// once (the scheduler and an operator's repair call): both compare the same stores and write the same
// verdict, and the WHERE verification = 'PENDING' guard keeps the first verdict.
import type { Knex } from 'knex';
import { repairOf, type RepairRecord, type Verification } from '../records';

/** A repair as decided: the audit row before the ledger assigns id, timestamps and verification progress. */
export type NewRepair = Omit<
  RepairRecord,
  'id' | 'verificationAttempts' | 'verifiedAt' | 'errorCode' | 'errorSummary' | 'createdAt' | 'updatedAt'
> & {
  errorCode?: string | null;
  errorSummary?: string | null;
};

export async function insertRepairs(db: Knex, repairs: NewRepair[], at: Date): Promise<RepairRecord[]> {
  if (repairs.length === 0) return [];
  const out: RepairRecord[] = [];
  for (let i = 0; i < repairs.length; i += 500) {
    const rows = repairs.slice(i, i + 500).map((r) => ({
      discrepancy_id: r.discrepancyId,
      domain: r.domain,
      scope_key: r.scopeKey,
      scope: JSON.stringify(r.scope),
      action: r.action,
      reason: r.reason.slice(0, 300),
      aggregate_id: r.aggregateId,
      source_version: r.sourceVersion,
      target_version: r.targetVersion,
      event_id: r.eventId,
      rebuild_id: r.rebuildId,
      requested_by: r.requestedBy.slice(0, 128),
      outcome: r.outcome,
      outcome_note: r.outcomeNote?.slice(0, 300) ?? null,
      verification: r.verification,
      error_code: r.errorCode ?? null,
      error_summary: r.errorSummary?.slice(0, 255) ?? null,
      created_at: at,
      updated_at: at,
    }));
    out.push(...((await db('reconciliation_repairs').insert(rows).returning('*')) as Record<string, unknown>[]).map(repairOf));
  }
  return out;
}

/** Records one verification attempt; a verdict (PASSED/FAILED) is written once. */
export async function recordVerification(db: Knex, id: number, verdict: Verification, at: Date, note?: string): Promise<void> {
  await db('reconciliation_repairs')
    .where({ id, verification: 'PENDING' })
    .update({
      verification: verdict,
      verification_attempts: db.raw('verification_attempts + 1'),
      verified_at: verdict === 'PENDING' ? null : at,
      updated_at: at,
      ...(note ? { outcome_note: note.slice(0, 300) } : {}),
    });
}
