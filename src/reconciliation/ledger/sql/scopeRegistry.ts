// SQL: the registry of scopes the rolling re-verification walks (reconciliation_scopes): every
// fitness campaign and UTC hour of orders, the size of its last completed run, and when it was last
// verified CLEAN at CONTENT level (the start of that run: what it saw was true from then on). A run
// that excluded aggregates (changed after its snapshot, in flight) did not judge the whole scope, so
// it is a completed run but no verification.
//
// Locking: registerScopes inserts with ON CONFLICT DO NOTHING, so two passes registering the same
// scopes insert each once and block nothing else. recordScopeRun upserts one row by primary key inside
// the run's result transaction: the row lock serialises two runs of a scope finishing together, and
// last_verified_at only ever moves forward (GREATEST), whichever commits last. Reads are plain READ
// COMMITTED reads; the rotation read walks reconciliation_scopes_rotation_idx in order.
import type { Knex } from 'knex';
import type { Domain } from '../../../publication/event';
import type { ReconcileLevel, RunOutcome } from '../../model';
import { scopeFromJson, scopeJson, scopeKey, type Scope } from '../../scope';

export async function registerScopes(db: Knex, scopes: Scope[], at: Date): Promise<void> {
  for (let i = 0; i < scopes.length; i += 1000) {
    const rows = scopes
      .slice(i, i + 1000)
      .map((s) => ({ scope_key: scopeKey(s), domain: s.domain, scope: JSON.stringify(scopeJson(s)), registered_at: at }));
    await db('reconciliation_scopes').insert(rows).onConflict('scope_key').ignore();
  }
}

export interface ScopeRun {
  runId: number;
  outcome: RunOutcome;
  levelReached: ReconcileLevel;
  aggregates: number;
  /** Aggregates the run left out (changed after its snapshot, in flight). */
  excluded: number;
  startedAt: Date;
  finishedAt: Date;
}

/** Records a completed run of a registered kind of scope; a CLEAN CONTENT run that excluded nothing is a verification. */
export async function recordScopeRun(db: Knex, scope: Scope, r: ScopeRun): Promise<void> {
  const verified = r.outcome === 'CLEAN' && r.levelReached === 'CONTENT' && r.excluded === 0;
  await db.raw(
    `INSERT INTO reconciliation_scopes (scope_key, domain, scope, aggregates, registered_at, last_run_at, last_outcome, last_verified_at, last_verified_run_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (scope_key) DO UPDATE SET
       aggregates = EXCLUDED.aggregates, last_run_at = EXCLUDED.last_run_at, last_outcome = EXCLUDED.last_outcome,
       last_verified_run_id = CASE WHEN EXCLUDED.last_verified_at > COALESCE(reconciliation_scopes.last_verified_at, '-infinity')
                                   THEN EXCLUDED.last_verified_run_id ELSE reconciliation_scopes.last_verified_run_id END,
       last_verified_at = GREATEST(reconciliation_scopes.last_verified_at, EXCLUDED.last_verified_at)`,
    [
      scopeKey(scope),
      scope.domain,
      JSON.stringify(scopeJson(scope)),
      r.aggregates,
      r.finishedAt,
      r.finishedAt,
      r.outcome,
      verified ? r.startedAt : null,
      verified ? r.runId : null,
    ],
  );
}

export interface RegisteredScope {
  scope: Scope;
  aggregates: number;
  lastVerifiedAt: Date | null;
}

/** Scopes never verified, then those verified longest ago, up to `verifiedBefore`. */
export async function dueForRotation(db: Knex, verifiedBefore: Date, limit: number): Promise<RegisteredScope[]> {
  const rows = (await db('reconciliation_scopes')
    .select('scope', 'aggregates', 'last_verified_at')
    .whereNull('last_verified_at')
    .orWhere('last_verified_at', '<', verifiedBefore)
    .orderByRaw('last_verified_at NULLS FIRST, scope_key')
    .limit(limit)) as { scope: unknown; aggregates: number; last_verified_at: Date | null }[];
  return rows.map((r) => ({
    scope: scopeFromJson(r.scope),
    aggregates: Number(r.aggregates),
    lastVerifiedAt: r.last_verified_at ? new Date(r.last_verified_at) : null,
  }));
}

export interface VerificationAge {
  domain: Domain;
  scopes: number;
  neverVerified: number;
  /** Age of the oldest verification (a never verified scope counts from its registration), seconds. */
  oldestAgeSeconds: number;
}

export async function verificationAges(db: Knex): Promise<VerificationAge[]> {
  const r = await db.raw<{ rows: { domain: Domain; n: string; never: string; age: string | null }[] }>(
    `SELECT domain, count(*) AS n, count(*) FILTER (WHERE last_verified_at IS NULL) AS never,
            EXTRACT(EPOCH FROM (now() - min(COALESCE(last_verified_at, registered_at)))) AS age
       FROM reconciliation_scopes GROUP BY domain`,
  );
  return r.rows.map((x) => ({
    domain: x.domain,
    scopes: Number(x.n),
    neverVerified: Number(x.never),
    oldestAgeSeconds: Math.max(0, Number(x.age ?? 0)),
  }));
}

/** Which of these scopes had a CLEAN CONTENT run that excluded nothing and started at or after `since`. */
export async function verifiedSince(db: Knex, scopeKeys: string[], since: Date): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < scopeKeys.length; i += 1000) {
    const rows = (await db('reconciliation_runs')
      .distinct('scope_key')
      .whereIn('scope_key', scopeKeys.slice(i, i + 1000))
      .where({ outcome: 'CLEAN', level_reached: 'CONTENT', excluded_changed: 0, excluded_in_flight: 0 })
      .where('started_at', '>=', since)) as { scope_key: string }[];
    for (const r of rows) out.add(r.scope_key);
  }
  return out;
}
