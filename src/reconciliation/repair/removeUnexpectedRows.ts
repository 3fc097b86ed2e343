// UNEXPECTED_ROW is never repaired automatically; this is the explicit, audited operator action.
import { uint } from '../../infra/clickhouse/literal';
import { summarizeError } from '../../shared/redact';
import { fieldsOf } from '../../domains/canonicalFields';
import { classifyOne } from '../classify';
import { claimForRepair, reopenDiscrepancy, resolveDiscrepancy } from '../ledger/sql/discrepancyTransitions';
import { listDiscrepancies } from '../ledger/sql/ledgerQueries';
import { insertRepairs, type NewRepair } from '../ledger/sql/repairRows';
import type { DiscrepancyRecord, RepairRecord } from '../ledger/records';
import { scopeFromJson } from '../scope';
import { projectionMappingOf } from '../target/projectionMapping';
import { deleteRows } from '../target/sql/deleteRows';
import { repairOfDiscrepancy, type RepairDeps } from './repairDeps';
import { verifyRepairs } from './verifyRepairs';

/**
 * The explicit, audited operator action for UNEXPECTED_ROW: removes the projection rows the source
 * cannot account for (every version of an aggregate the source never had, or only the versions above
 * the source's), then verifies. Refused when the row is no longer unexpected.
 */
export async function removeUnexpectedRows(d: RepairDeps, ids: number[], reason: string, requestedBy: string): Promise<RepairRecord[]> {
  const found = await listDiscrepancies(d.ledger, { ids, first: ids.length });
  const eligible = found.filter((x) => x.kind === 'UNEXPECTED_ROW' && x.status === 'OPEN');
  const claimed = new Set(
    await claimForRepair(
      d.ledger,
      eligible.map((x) => x.id),
    ),
  );
  const out: NewRepair[] = [];
  const base = (x: DiscrepancyRecord) => ({
    ...repairOfDiscrepancy(x, requestedBy),
    action: 'REMOVE_UNEXPECTED' as const,
    reason: `operator: ${reason}`,
  });
  for (const x of found.filter((f) => !claimed.has(f.id)))
    out.push({
      ...base(x),
      outcome: 'REFUSED',
      outcomeNote:
        x.kind !== 'UNEXPECTED_ROW'
          ? `only UNEXPECTED_ROW discrepancies can be removed (this is ${x.kind})`
          : `not open (status ${x.status})`,
      verification: 'NOT_APPLICABLE',
    });
  for (const x of found.filter((f) => claimed.has(f.id))) {
    const scope = scopeFromJson(x.scope);
    const m = projectionMappingOf(scope.domain);
    const filter = { ids: [x.aggregateId] };
    const [s, t] = await Promise.all([
      d.sources[scope.domain].states(scope, 'IDS', filter),
      d.targets[scope.domain].states(scope, 'IDS', filter),
    ]);
    const now = classifyOne(x.aggregateId, s[0], t[0], fieldsOf(scope.domain, 'IDS'));
    if (now?.kind !== 'UNEXPECTED_ROW') {
      out.push({
        ...base(x),
        outcome: 'REFUSED',
        outcomeNote: now ? `no longer unexpected: now ${now.kind}` : 'no longer unexpected: source and projection agree',
        verification: 'NOT_APPLICABLE',
      });
      if (now) await reopenDiscrepancy(d.ledger, x.id);
      else await resolveDiscrepancy(d.ledger, x.id, 'NOT_FOUND_AGAIN', d.clock.now());
      continue;
    }
    try {
      await deleteRows(
        d.ch,
        d.layout,
        d.database,
        m.table,
        `${m.idsWhere([x.aggregateId])}${s[0] ? ` AND version > ${uint(s[0].version)}` : ''}`,
      );
      out.push({
        ...base(x),
        targetVersion: t[0]?.version ?? null,
        sourceVersion: s[0]?.version ?? null,
        outcome: 'COMPLETED',
        outcomeNote: s[0] ? `removed versions above ${s[0].version}` : 'removed every version (no source)',
        verification: 'PENDING',
      });
    } catch (err) {
      const safe = summarizeError(err);
      out.push({
        ...base(x),
        outcome: 'FAILED',
        outcomeNote: 'the deletion failed',
        verification: 'NOT_APPLICABLE',
        errorCode: safe.code,
        errorSummary: safe.summary,
      });
      await reopenDiscrepancy(d.ledger, x.id);
    }
  }
  const stored = await insertRepairs(d.ledger, out, d.clock.now());
  for (const r of stored) d.metrics.repairs.inc({ domain: r.domain, action: r.action, outcome: r.outcome });
  const toVerify = stored.filter((r) => r.verification === 'PENDING').map((r) => r.id);
  if (toVerify.length) await verifyRepairs(d, toVerify);
  return stored;
}
