// SQL: the ledger's reads (operator queries, the verifier's work list, metric gauges, the scheduler's
// "already reconciled since its last change?" check). Operator lists are keyset-paginated, newest
// first by primary key: `beforeId` is the id of the last row of the previous page.
//
// Locking: plain non-locking reads (READ COMMITTED snapshots); answers may be a moment old, which every
// caller tolerates (the verifier re-checks the guard when it writes, gauges refresh periodically).
import type { Knex } from 'knex';
import type { Domain } from '../../../publication/event';
import type { DiscrepancyKind, DiscrepancyStatus, RunOutcome, RunTrigger } from '../../model';
import {
  discrepancyOf,
  rebuildOf,
  repairOf,
  runOf,
  type DiscrepancyRecord,
  type RebuildRecord,
  type RepairAction,
  type RepairRecord,
  type RunRecord,
  type Verification,
} from '../records';

export interface DiscrepancyFilter {
  domain?: Domain;
  kinds?: DiscrepancyKind[];
  statuses?: DiscrepancyStatus[];
  scopeKey?: string;
  aggregateId?: string;
  ids?: number[];
  first: number;
  /** Keyset pagination: only rows older than this id (lists are newest first, by id). */
  beforeId?: number;
}

/** Newest first by id, from `beforeId` on: the keyset page every ledger list uses. */
function page(q: Knex.QueryBuilder, f: { first: number; beforeId?: number }): Knex.QueryBuilder {
  if (f.beforeId !== undefined) q.where('id', '<', f.beforeId);
  return q.orderBy('id', 'desc').limit(f.first);
}

export async function listDiscrepancies(db: Knex, f: DiscrepancyFilter): Promise<DiscrepancyRecord[]> {
  const q = page(db('reconciliation_discrepancies').select('*'), f);
  if (f.domain) q.where('domain', f.domain);
  if (f.kinds?.length) q.whereIn('kind', f.kinds);
  if (f.statuses?.length) q.whereIn('status', f.statuses);
  if (f.scopeKey) q.where('scope_key', f.scopeKey);
  if (f.aggregateId) q.where('aggregate_id', f.aggregateId);
  if (f.ids) q.whereIn('id', f.ids);
  return ((await q) as Record<string, unknown>[]).map(discrepancyOf);
}

export interface RepairFilter {
  domain?: Domain;
  actions?: RepairAction[];
  verifications?: Verification[];
  discrepancyId?: number;
  rebuildId?: number;
  ids?: number[];
  first: number;
  beforeId?: number;
}

export async function listRepairs(db: Knex, f: RepairFilter): Promise<RepairRecord[]> {
  const q = page(db('reconciliation_repairs').select('*'), f);
  if (f.domain) q.where('domain', f.domain);
  if (f.actions?.length) q.whereIn('action', f.actions);
  if (f.verifications?.length) q.whereIn('verification', f.verifications);
  if (f.discrepancyId !== undefined) q.where('discrepancy_id', f.discrepancyId);
  if (f.rebuildId !== undefined) q.where('rebuild_id', f.rebuildId);
  if (f.ids) q.whereIn('id', f.ids);
  return ((await q) as Record<string, unknown>[]).map(repairOf);
}

/** Repairs awaiting verification, oldest first. */
export async function pendingVerifications(db: Knex, limit: number, ids?: number[]): Promise<RepairRecord[]> {
  const q = db('reconciliation_repairs').select('*').where('verification', 'PENDING').orderBy('created_at').limit(limit);
  if (ids) q.whereIn('id', ids);
  return ((await q) as Record<string, unknown>[]).map(repairOf);
}

export interface RunFilter {
  domain?: Domain;
  scopeKey?: string;
  triggers?: RunTrigger[];
  outcomes?: RunOutcome[];
  first: number;
  beforeId?: number;
}

/** Reconciliation runs, newest first. */
export async function listRuns(db: Knex, f: RunFilter): Promise<RunRecord[]> {
  const q = page(db('reconciliation_runs').select('*'), f);
  if (f.domain) q.where('domain', f.domain);
  if (f.scopeKey) q.where('scope_key', f.scopeKey);
  if (f.triggers?.length) q.whereIn('trigger', f.triggers);
  if (f.outcomes?.length) q.whereIn('outcome', f.outcomes);
  return ((await q) as Record<string, unknown>[]).map(runOf);
}

export async function runById(db: Knex, id: number): Promise<RunRecord | undefined> {
  const row = (await db('reconciliation_runs').where({ id }).first()) as Record<string, unknown> | undefined;
  return row && runOf(row);
}

export async function listRebuilds(
  db: Knex,
  f: { domain?: Domain; ids?: number[]; first: number; beforeId?: number },
): Promise<RebuildRecord[]> {
  const q = page(db('projection_rebuilds').select('*'), f);
  if (f.domain) q.where('domain', f.domain);
  if (f.ids) q.whereIn('id', f.ids);
  return ((await q) as Record<string, unknown>[]).map(rebuildOf);
}

export interface LedgerGauges {
  unresolved: { domain: Domain; kind: DiscrepancyKind; n: number }[];
  awaitingVerification: { domain: Domain; n: number }[];
}

export async function ledgerGauges(db: Knex): Promise<LedgerGauges> {
  const unresolved = (await db('reconciliation_discrepancies')
    .whereNot('status', 'RESOLVED')
    .select('domain', 'kind')
    .count({ n: '*' })
    .groupBy('domain', 'kind')) as { domain: Domain; kind: DiscrepancyKind; n: string }[];
  const awaiting = (await db('reconciliation_repairs')
    .where('verification', 'PENDING')
    .select('domain')
    .count({ n: '*' })
    .groupBy('domain')) as { domain: Domain; n: string }[];
  return {
    unresolved: unresolved.map((r) => ({ domain: r.domain, kind: r.kind, n: Number(r.n) })),
    awaitingVerification: awaiting.map((r) => ({ domain: r.domain, n: Number(r.n) })),
  };
}

/**
 * Finish time of the newest completed (CLEAN or DISCREPANCIES) run per scope key that judged every
 * aggregate: a run that excluded some (changed after its snapshot, in flight) leaves the scope to the
 * next run, so the schedule takes it again once it is quiet.
 */
export async function lastCompletedRuns(db: Knex, scopeKeys: string[]): Promise<Map<string, Date>> {
  if (scopeKeys.length === 0) return new Map();
  const rows = (await db('reconciliation_runs')
    .whereIn('scope_key', scopeKeys)
    .whereIn('outcome', ['CLEAN', 'DISCREPANCIES'])
    .where({ excluded_changed: 0, excluded_in_flight: 0 })
    .select('scope_key')
    .max({ at: 'finished_at' })
    .groupBy('scope_key')) as { scope_key: string; at: Date }[];
  return new Map(rows.map((r) => [r.scope_key, new Date(r.at)]));
}
