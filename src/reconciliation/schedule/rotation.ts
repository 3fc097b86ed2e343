// The rolling re-verification: besides the scopes that changed, the scheduler re-verifies scopes
// that did not, so a lost ClickHouse part or a stray mutation in an old campaign is found without
// any source change. Every campaign and every complete UTC hour of orders is registered; a scope is
// due once its last CLEAN CONTENT verification is older than half the rotation period (never
// verified ones first, then the oldest), and each pass takes due scopes until its share of the row
// budget is spent (always at least one, so a scope larger than the share is not starved). With a
// budget that covers every scope's rows once per half period, every scope is re-verified within the
// period, even across a reconciler outage of up to half of it; the oldest verification age (gauge and
// publicationHealth) shows whether that holds.
import type { Knex } from 'knex';
import type { MysqlShards } from '../../infra/mysql/fromMysql';
import { allCampaigns } from '../fitness/sql/allCampaigns';
import { dueForRotation, registerScopes, type RegisteredScope } from '../ledger/sql/scopeRegistry';
import { orderHours } from '../orders/sql/orderHours';
import { campaignScope, orderHourScope, scopeKey, type Scope } from '../scope';

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
  /** Order hours that ended before this are complete (registered). */
  ordersUntil: Date;
  /** Scopes this pass leaves alone (already reconciled in it, or still changing). */
  exclude: Set<string>;
}

/** Registers every scope the stores hold and returns those due now, within the pass's budget. */
export async function rotationScopes(
  d: { mysql: Pick<MysqlShards, 'shards'>; pg: Knex; ledger: Knex },
  s: RotationSettings,
  p: RotationPass,
): Promise<RegisteredScope[]> {
  if (s.periodMs <= 0) return [];
  const campaigns = new Set<number>();
  for (const ids of await Promise.all(d.mysql.shards.map((sh) => allCampaigns(sh.db))))
    for (const id of ids) if (id >= 1) campaigns.add(id);
  const scopes: Scope[] = [...campaigns].map((id) => campaignScope(id));
  for (const h of await orderHours(d.pg, p.ordersUntil)) scopes.push(orderHourScope(h));
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
