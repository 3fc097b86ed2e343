// The fitness domain's reconciliation part: its scopes are campaigns, its authoritative rows live on
// every shard (so each scheduling question is asked of every shard and the answers merged), and it
// has no kafka-first publication scan (a result's outbox row is written with it).
import { uint } from '../../../infra/clickhouse/literal';
import type { ReconciledDomain } from '../../contract/reconciliation';
import { campaignJson, campaignKey, campaignPendingFilter, campaignScope, isWholeCampaign, type CampaignScope } from './campaignScope';
import { fitnessSource } from './fitnessSource';
import { allCampaigns } from './sql/allCampaigns';
import { recentCampaigns } from './sql/recentCampaigns';

const byId = (ids: Iterable<number>): CampaignScope[] => [...ids].map((id) => campaignScope(id));

export const fitnessReconciliation: ReconciledDomain<CampaignScope> = {
  domain: 'fitness',
  scopeKey: campaignKey,
  scopeJson: campaignJson,
  scopeFromJson: (o) => campaignScope(o.detectId, o.projectId),
  isRegisteredKind: isWholeCampaign,
  pendingFilter: campaignPendingFilter,
  targetWhere: (scope) => `detect_id = ${uint(scope.detectId)}${scope.projectId ? ` AND project_id = ${uint(scope.projectId)}` : ''}`,
  source: (stores) => fitnessSource(stores.mysql, stores.schemaVersions),

  // A campaign's last change is the newest over all shards; it is completed once that is quiet.
  async changedScopes(stores, w) {
    const campaigns = new Map<number, number>();
    for (const m of await Promise.all(stores.mysql.shards.map((s) => recentCampaigns(s.db, new Date(w.sinceMs)))))
      for (const [id, at] of m) campaigns.set(id, Math.max(campaigns.get(id) ?? 0, at));
    const completed: { scope: CampaignScope; lastChangeMs: number }[] = [];
    const changing: CampaignScope[] = [];
    for (const [detectId, at] of campaigns) {
      if (detectId < 1) continue;
      if (at <= w.quietBeforeMs) completed.push({ scope: campaignScope(detectId), lastChangeMs: at });
      else changing.push(campaignScope(detectId));
    }
    return { completed, changing };
  },

  // Every campaign, changing or not: rotation re-verifies those that were not reconciled recently.
  async registeredScopes(stores) {
    const campaigns = new Set<number>();
    for (const ids of await Promise.all(stores.mysql.shards.map((sh) => allCampaigns(sh.db))))
      for (const id of ids) if (id >= 1) campaigns.add(id);
    return byId(campaigns);
  },

  async scopesChangedIn(stores, fromMs, toMs) {
    const campaigns = new Set<number>();
    for (const m of await Promise.all(stores.mysql.shards.map((s) => recentCampaigns(s.db, new Date(fromMs), new Date(toMs)))))
      for (const id of m.keys()) if (id >= 1) campaigns.add(id);
    return byId([...campaigns].sort((a, b) => a - b));
  },
};
