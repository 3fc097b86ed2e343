// Reconciliation metrics (Prometheus; labels bounded: domain, kind, trigger, outcome, action, status).
// The gauges are refreshed from the ledger (PostgreSQL), so every process that refreshes them
// reports the same numbers, whichever process found or repaired what.
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import { counter, gauge, histogram } from '../metrics/registry';
import { ledgerGauges } from './ledger/sql/ledgerQueries';
import { verificationAges } from './ledger/sql/scopeRegistry';

export function reconciliationMetrics(r: Registry) {
  return {
    unresolved: gauge(r, {
      name: 'tidemark_reconciliation_discrepancies_unresolved',
      help: 'Discrepancies not yet resolved (OPEN or REPAIRING), by domain and kind.',
      labelNames: ['domain', 'kind'],
    }),
    awaitingVerification: gauge(r, {
      name: 'tidemark_repairs_awaiting_verification',
      help: 'Repairs sent or started whose verification has not passed or failed yet, by domain.',
      labelNames: ['domain'],
    }),
    runs: counter(r, {
      name: 'tidemark_reconciliation_runs_total',
      help: 'Reconciliation runs, by domain, trigger and outcome (CLEAN, DISCREPANCIES, CATCHING_UP, SCOPE_CHANGED, FAILED).',
      labelNames: ['domain', 'trigger', 'outcome'],
    }),
    runSeconds: histogram(r, {
      name: 'tidemark_reconciliation_run_duration_seconds',
      help: 'Duration of one reconciliation run (all attempts), by domain.',
      labelNames: ['domain'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    }),
    repairs: counter(r, {
      name: 'tidemark_repairs_total',
      help: 'Repairs decided, by domain, action and outcome.',
      labelNames: ['domain', 'action', 'outcome'],
    }),
    verifications: counter(r, {
      name: 'tidemark_repair_verifications_total',
      help: 'Repair verification verdicts, by domain and verdict (PASSED, FAILED).',
      labelNames: ['domain', 'verdict'],
    }),
    oldestVerification: gauge(r, {
      name: 'tidemark_reconciliation_oldest_verification_age_seconds',
      help: 'Age of the oldest CLEAN CONTENT verification among the registered scopes (campaigns, order hours) of a domain, seconds.',
      labelNames: ['domain'],
    }),
    neverVerified: gauge(r, {
      name: 'tidemark_reconciliation_scopes_never_verified',
      help: 'Registered scopes (campaigns, order hours) of a domain never verified CLEAN at CONTENT level.',
      labelNames: ['domain'],
    }),
    rebuilds: counter(r, {
      name: 'tidemark_projection_rebuilds_total',
      help: 'Projection rebuilds finished, by domain and status (VERIFIED, FAILED).',
      labelNames: ['domain', 'status'],
    }),
  };
}

export type ReconciliationMetrics = ReturnType<typeof reconciliationMetrics>;

/** Sets the gauges from the ledger (labels that disappeared drop back out). */
export async function refreshLedgerGauges(ledger: Knex, m: ReconciliationMetrics): Promise<void> {
  const [g, ages] = await Promise.all([ledgerGauges(ledger), verificationAges(ledger)]);
  m.unresolved.reset();
  m.awaitingVerification.reset();
  m.oldestVerification.reset();
  m.neverVerified.reset();
  for (const a of ages) {
    m.oldestVerification.set({ domain: a.domain }, a.oldestAgeSeconds);
    m.neverVerified.set({ domain: a.domain }, a.neverVerified);
  }
  for (const u of g.unresolved) m.unresolved.set({ domain: u.domain, kind: u.kind }, u.n);
  for (const a of g.awaitingVerification) m.awaitingVerification.set({ domain: a.domain }, a.n);
}
