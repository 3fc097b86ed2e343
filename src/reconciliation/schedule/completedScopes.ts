// Which scopes the scheduled reconciliation looks at: recently completed ones (no change for the
// quiet period, changed within the lookback), not reconciled to completion since their last change.
// Newest first, at most `limit`. Also names the scopes still changing (the rotation leaves them be).
import type { Knex } from 'knex';
import type { MysqlShards } from '../../infra/mysql/fromMysql';
import { recentCampaigns } from '../fitness/sql/recentCampaigns';
import { lastCompletedRuns } from '../ledger/sql/ledgerQueries';
import { recentHourWindows } from '../orders/sql/recentWindows';
import { campaignScope, HOUR_MS, orderHourScope, scopeKey, type Scope } from '../scope';

export interface ScheduleWindow {
  nowMs: number;
  quietMs: number;
  lookbackMs: number;
  /** Extra quiet time for order windows (direct publishes and the publication reconciler's grace). */
  ordersExtraMs: number;
  limit: number;
}

export interface ScheduleCandidates {
  /** Completed and not reconciled since their last change, newest first. */
  due: { scope: Scope; lastChangeMs: number }[];
  /** Keys of campaigns changed within the quiet period. */
  active: Set<string>;
  /** Order hours that ended before this are complete. */
  ordersUntil: Date;
}

export async function completedScopes(
  d: { mysql: Pick<MysqlShards, 'shards'>; pg: Knex; ledger: Knex },
  w: ScheduleWindow,
): Promise<ScheduleCandidates> {
  const since = new Date(w.nowMs - w.lookbackMs);
  const campaigns = new Map<number, number>();
  for (const m of await Promise.all(d.mysql.shards.map((s) => recentCampaigns(s.db, since))))
    for (const [id, at] of m) campaigns.set(id, Math.max(campaigns.get(id) ?? 0, at));
  const candidates: { scope: Scope; lastChangeMs: number }[] = [];
  const active = new Set<string>();
  for (const [detectId, at] of campaigns) {
    if (detectId < 1) continue;
    if (at <= w.nowMs - w.quietMs) candidates.push({ scope: campaignScope(detectId), lastChangeMs: at });
    else active.add(scopeKey(campaignScope(detectId)));
  }
  const ordersUntil = new Date(Math.floor((w.nowMs - w.quietMs - w.ordersExtraMs) / HOUR_MS) * HOUR_MS);
  if (ordersUntil.getTime() > since.getTime())
    for (const h of await recentHourWindows(d.pg, since, ordersUntil))
      candidates.push({ scope: orderHourScope(h.from), lastChangeMs: h.lastChangeMs });
  const done = await lastCompletedRuns(
    d.ledger,
    candidates.map((c) => scopeKey(c.scope)),
  );
  const due = candidates
    .filter((c) => (done.get(scopeKey(c.scope))?.getTime() ?? 0) <= c.lastChangeMs)
    .sort((a, b) => b.lastChangeMs - a.lastChangeMs)
    .slice(0, w.limit);
  return { due, active, ordersUntil };
}
