// The rolling re-verification: besides the scopes that changed, the scheduler re-verifies scopes
// that did not, so a lost ClickHouse part or a stray mutation in an old campaign is found without
// any source change. Every domain's registered scopes (each campaign, each complete UTC hour of
// orders) are recorded in the ledger; a scope is due once its last CLEAN CONTENT verification is
// older than half the rotation period (never verified ones first, then the oldest), and each pass takes due scopes until its share of the row
// budget is spent (always at least one, so a scope larger than the share is not starved). With a
// budget that covers every scope's rows once per half period, every scope is re-verified within the
// period, even across a reconciler outage of up to half of it; the oldest verification age (gauge and
// publicationHealth) shows whether that holds.
import type { Knex } from 'knex';
import type { DomainStores } from '../../domains/contract/reconciliation';
import { reconciledDomains } from '../../domains/reconciledDomains';
import type { Domain } from '../../publication/event';
import { dueForRotation, registerScopes, type RegisteredScope } from '../ledger/sql/scopeRegistry';
import { scopeKey, type Scope } from '../scope';

export interface RotationSettings {
  /** Every registered scope is re-verified within this period (0: no rotation). */
  periodMs: number;
  /** Records (aggregates) the rotation may reconcile per hour. */
  rowsPerHour: number;
}

export interface RotationPass {
  nowMs: number;
  /** This pass's share of the hourly budget. */
  rows: number;
  /** Per domain: scopes whose records stopped changing before this are complete (registered). */
  quietBeforeMs(domain: Domain): number;
  /** Scopes this pass leaves alone (already reconciled in it, or still changing). */
  exclude: Set<string>;
}

/** Registers every scope the stores hold and returns those due now, within the pass's budget. */
export async function rotationScopes(d: DomainStores & { ledger: Knex }, s: RotationSettings, p: RotationPass): Promise<RegisteredScope[]> {
  if (s.periodMs <= 0) return [];
  const scopes: Scope[] = [];
  for (const part of reconciledDomains()) scopes.push(...(await part.registeredScopes(d, { quietBeforeMs: p.quietBeforeMs(part.domain) })));
  await registerScopes(d.ledger, scopes, new Date(p.nowMs));

  const due = await dueForRotation(d.ledger, new Date(p.nowMs - s.periodMs / 2), 1000);
  const picked: RegisteredScope[] = [];
  let rows = 0;
  for (const r of due) {
    if (p.exclude.has(scopeKey(r.scope))) continue;
    if (picked.length > 0 && rows + r.aggregates > p.rows) break;
    picked.push(r);
    rows += r.aggregates;
  }
  return picked;
}
