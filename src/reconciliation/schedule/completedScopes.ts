// Which scopes the scheduled reconciliation looks at: recently completed ones (no change for the
// quiet period, changed within the lookback), not reconciled to completion since their last change.
// Newest first, at most `limit`. Also names the scopes still changing (the rotation leaves them be).
import type { Knex } from 'knex';
import type { DomainStores } from '../../domains/contract/reconciliation';
import { reconciledDomains } from '../../domains/reconciledDomains';
import type { Domain } from '../../publication/event';
import { lastCompletedRuns } from '../ledger/sql/ledgerQueries';
import { scopeKey, type Scope } from '../scope';

export interface ScheduleWindow {
  nowMs: number;
  quietMs: number;
  lookbackMs: number;
  /**
   * Extra quiet time per domain (orders: direct publishes and the publication reconciler's grace, so
   * an order whose publication is still being rebuilt is not reconciled yet).
   */
  extraQuietMs: Partial<Record<Domain, number>>;
  limit: number;
}

export interface ScheduleCandidates {
  /** Completed and not reconciled since their last change, newest first. */
  due: { scope: Scope; lastChangeMs: number }[];
  /** Keys of scopes changed within the quiet period. */
  active: Set<string>;
  /** Per domain: records that last changed before this are quiet (their scopes complete). */
  quietBeforeMs(domain: Domain): number;
}

export async function completedScopes(d: DomainStores & { ledger: Knex }, w: ScheduleWindow): Promise<ScheduleCandidates> {
  const sinceMs = w.nowMs - w.lookbackMs;
  const quietBeforeMs = (domain: Domain) => w.nowMs - w.quietMs - (w.extraQuietMs[domain] ?? 0);
  const candidates: { scope: Scope; lastChangeMs: number }[] = [];
  const active = new Set<string>();
  for (const part of reconciledDomains()) {
    const changed = await part.changedScopes(d, { sinceMs, quietBeforeMs: quietBeforeMs(part.domain) });
    candidates.push(...changed.completed);
    for (const scope of changed.changing) active.add(scopeKey(scope));
  }
  const done = await lastCompletedRuns(
    d.ledger,
    candidates.map((c) => scopeKey(c.scope)),
  );
  const due = candidates
    .filter((c) => (done.get(scopeKey(c.scope))?.getTime() ?? 0) <= c.lastChangeMs)
    .sort((a, b) => b.lastChangeMs - a.lastChangeMs)
    .slice(0, w.limit);
  return { due, active, quietBeforeMs };
}
