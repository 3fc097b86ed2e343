// Verification of repairs: re-running the comparison for the repaired aggregate (its current
// authoritative state against the projection's latest, at CONTENT level). Rebuilds are verified by a
// reconciliation of their whole scope (rebuild/rebuildProjection.ts); their repairs take that verdict.
import { fieldsOf } from '../../domains/canonicalFields';
import { classifyOne } from '../classify';
import { reopenDiscrepancy, resolveDiscrepancy } from '../ledger/sql/discrepancyTransitions';
import { listRebuilds, pendingVerifications } from '../ledger/sql/ledgerQueries';
import { settleRebuildRepairs } from '../rebuild/settleRebuildRepairs';
import { recordVerification } from '../ledger/sql/repairRows';
import { scopeFromJson } from '../scope';
import { groupBy, type RepairDeps } from './repairDeps';

/**
 * Verifies pending repairs by comparing the aggregate's current authoritative state with the
 * projection's, at CONTENT level. A REBUILD repair takes its rebuild's verdict (a reconciliation of
 * the whole scope) once the rebuild has ended; this also settles repairs whose rebuild ended before
 * their audit row was written, or in a process that stopped before settling them. Returns how many
 * are still pending.
 */
export async function verifyRepairs(d: RepairDeps, repairIds?: number[]): Promise<number> {
  const pending = await pendingVerifications(d.ledger, 500, repairIds);
  let still = 0;
  const rebuildIds = [...new Set(pending.filter((r) => r.action === 'REBUILD' && r.rebuildId !== null).map((r) => r.rebuildId!))];
  for (const rebuild of rebuildIds.length ? await listRebuilds(d.ledger, { ids: rebuildIds, first: rebuildIds.length }) : []) {
    if (rebuild.status === 'RUNNING') still += pending.filter((r) => r.rebuildId === rebuild.id).length;
    else await settleRebuildRepairs(d.ledger, d.clock, d.metrics, rebuild);
  }
  for (const group of groupBy(
    pending.filter((r) => r.action !== 'REBUILD'),
    (r) => r.scopeKey,
  ).values()) {
    const scope = scopeFromJson(group[0]!.scope);
    const ids = [...new Set(group.map((r) => r.aggregateId).filter((i): i is string => !!i))];
    const filter = { ids };
    const [s, t] = await Promise.all([
      d.sources[scope.domain].states(scope, 'CONTENT', filter),
      d.targets[scope.domain].states(scope, 'CONTENT', filter),
    ]);
    const sById = new Map(s.map((x) => [x.id, x]));
    const tById = new Map(t.map((x) => [x.id, x]));
    const now = d.clock.now();
    for (const r of group) {
      const diff = r.aggregateId
        ? classifyOne(r.aggregateId, sById.get(r.aggregateId), tById.get(r.aggregateId), fieldsOf(scope.domain, 'CONTENT'))
        : undefined;
      if (!diff) {
        await recordVerification(d.ledger, r.id, 'PASSED', now, `verified: source and projection agree`);
        if (r.discrepancyId)
          await resolveDiscrepancy(d.ledger, r.discrepancyId, r.action === 'REMOVE_UNEXPECTED' ? 'REMOVED_BY_OPERATOR' : 'REPAIRED', now);
        d.metrics.verifications.inc({ domain: r.domain, verdict: 'PASSED' });
      } else if (now.getTime() - r.createdAt.getTime() > d.verifyTimeoutMs) {
        await recordVerification(d.ledger, r.id, 'FAILED', now, `verification timed out: still ${diff.kind}`);
        if (r.discrepancyId) await reopenDiscrepancy(d.ledger, r.discrepancyId);
        d.metrics.verifications.inc({ domain: r.domain, verdict: 'FAILED' });
      } else {
        await recordVerification(d.ledger, r.id, 'PENDING', now);
        still++;
      }
    }
  }
  return still;
}
