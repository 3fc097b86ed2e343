// Dispatching repairs: each discrepancy kind gets its own repair (decideRepair.ts) and every repair
// is one audited row. Replays and tombstones are the authoritative state's own events sent to the
// domain topic (the projector applies them through its normal path), rate-limited; content
// mismatches start a rebuild of their scope; unexpected rows are refused (removeUnexpectedRows.ts).
import type { DomainEvent } from '../../publication/event';
import { summarizeError } from '../../shared/redact';
import { claimForRepair, reopenDiscrepancy, resolveDiscrepancy } from '../ledger/sql/discrepancyTransitions';
import { ERASED_RESOLUTION } from '../ledger/sql/scrubAggregates';
import { splitErased } from '../erasedFilter';
import { listDiscrepancies } from '../ledger/sql/ledgerQueries';
import { insertRepairs, type NewRepair } from '../ledger/sql/repairRows';
import type { DiscrepancyRecord, RepairRecord } from '../ledger/records';
import { scopeFromJson } from '../scope';
import { decideRepair } from './decideRepair';
import { actionFor, groupBy, repairOfDiscrepancy, type RepairDeps } from './repairDeps';

/** Dispatches the repair of each discrepancy; returns the audit rows (verification PENDING where sent). */
export async function repairDiscrepancies(d: RepairDeps, ids: number[], requestedBy: string): Promise<RepairRecord[]> {
  const found = await listDiscrepancies(d.ledger, { ids, first: ids.length });
  const claimed = new Set(
    await claimForRepair(
      d.ledger,
      found.filter((x) => x.status === 'OPEN').map((x) => x.id),
    ),
  );
  const out: NewRepair[] = [];
  for (const x of found.filter((f) => !claimed.has(f.id)))
    out.push({
      ...repairOfDiscrepancy(x, requestedBy),
      action: actionFor(x.kind),
      outcome: 'REFUSED',
      outcomeNote: `not open (status ${x.status})`,
      verification: 'NOT_APPLICABLE',
    });

  for (const group of groupBy(
    found.filter((x) => claimed.has(x.id)),
    (x) => x.scopeKey,
  ).values()) {
    const before = out.length;
    try {
      await repairGroup(d, group, requestedBy, out);
    } catch (err) {
      // Whatever failed (a store, Kafka), every claimed discrepancy of the group without a repair row
      // gets one (FAILED, with a safe summary) and is reopened: nothing stays REPAIRING silently.
      const safe = summarizeError(err);
      const done = new Set(out.slice(before).map((r) => r.discrepancyId));
      for (const x of group.filter((g) => !done.has(g.id))) {
        out.push({
          ...repairOfDiscrepancy(x, requestedBy),
          action: actionFor(x.kind),
          outcome: 'FAILED',
          outcomeNote: 'the repair could not be carried out',
          verification: 'NOT_APPLICABLE',
          errorCode: safe.code,
          errorSummary: safe.summary,
        });
        await reopenDiscrepancy(d.ledger, x.id);
      }
    }
  }
  const stored = await insertRepairs(d.ledger, out, d.clock.now());
  for (const r of stored) d.metrics.repairs.inc({ domain: r.domain, action: r.action, outcome: r.outcome });
  return stored;
}

async function repairGroup(d: RepairDeps, all: DiscrepancyRecord[], requestedBy: string, out: NewRepair[]): Promise<void> {
  const scope = scopeFromJson(all[0]!.scope);
  // An erased aggregate is never repaired: a replay or a tombstone (a deletion event carries the full
  // last state) would publish the student again. Its discrepancy is settled as ERASED, with no repair
  // row (that row would name the aggregate in the ledger the erasure scrubs).
  const { kept: group, erased } = await splitErased(d.erased, scope.domain, all, (x) => x.aggregateId);
  for (const x of all.filter((g) => erased.includes(g.aggregateId)))
    await resolveDiscrepancy(d.ledger, x.id, ERASED_RESOLUTION, d.clock.now());
  if (!group.length) return;
  const replayable = group.filter((x) => x.kind !== 'CONTENT_MISMATCH' && x.kind !== 'UNEXPECTED_ROW');
  const current = replayable.length
    ? new Map(
        (
          await d.sources[scope.domain].events(
            scope,
            replayable.map((x) => x.aggregateId),
          )
        ).map((e) => [e.aggregateId, e]),
      )
    : new Map<string, DomainEvent>();
  const toSend: { x: DiscrepancyRecord; event: DomainEvent; action: 'REPLAY' | 'TOMBSTONE' }[] = [];
  const rebuildFor: DiscrepancyRecord[] = [];
  for (const x of group) {
    const decision = decideRepair(x.kind, current.get(x.aggregateId));
    if ('refuse' in decision) {
      out.push({
        ...repairOfDiscrepancy(x, requestedBy),
        action: decision.action,
        outcome: 'REFUSED',
        outcomeNote: decision.refuse,
        verification: 'NOT_APPLICABLE',
      });
      await reopenDiscrepancy(d.ledger, x.id);
    } else if (decision.action === 'INVESTIGATE') {
      out.push({
        ...repairOfDiscrepancy(x, requestedBy),
        action: 'INVESTIGATE',
        outcome: 'REFUSED',
        outcomeNote: decision.note,
        verification: 'NOT_APPLICABLE',
      });
      await reopenDiscrepancy(d.ledger, x.id);
    } else if (decision.action === 'REBUILD') rebuildFor.push(x);
    else toSend.push({ x, event: decision.event, action: decision.action });
  }

  for (let i = 0; i < toSend.length; i += 100) {
    const slice = toSend.slice(i, i + 100);
    await d.limiter.acquire(slice.length, d.signal);
    try {
      await d.sink.send(slice.map((s) => s.event));
      for (const s of slice)
        out.push({
          ...repairOfDiscrepancy(s.x, requestedBy),
          action: s.action,
          sourceVersion: s.event.version,
          eventId: s.event.eventId,
          outcome: 'SENT',
          outcomeNote: `sent ${s.event.eventId} (version ${s.event.version}) to the ${scope.domain} topic`,
          verification: 'PENDING',
        });
    } catch (err) {
      const safe = summarizeError(err);
      for (const s of slice) {
        out.push({
          ...repairOfDiscrepancy(s.x, requestedBy),
          action: s.action,
          sourceVersion: s.event.version,
          eventId: s.event.eventId,
          outcome: 'FAILED',
          outcomeNote: 'publishing to Kafka failed',
          verification: 'NOT_APPLICABLE',
          errorCode: safe.code,
          errorSummary: safe.summary,
        });
        await reopenDiscrepancy(d.ledger, s.x.id);
      }
    }
  }

  if (rebuildFor.length) {
    try {
      const rebuildId = await d.rebuild(scope, requestedBy, `CONTENT_MISMATCH of ${rebuildFor.length} aggregate(s)`);
      for (const x of rebuildFor)
        out.push({
          ...repairOfDiscrepancy(x, requestedBy),
          action: 'REBUILD',
          rebuildId,
          outcome: 'SENT',
          outcomeNote: `rebuild ${rebuildId} of ${all[0]!.scopeKey} started`,
          verification: 'PENDING',
        });
    } catch (err) {
      const safe = summarizeError(err);
      for (const x of rebuildFor) {
        out.push({
          ...repairOfDiscrepancy(x, requestedBy),
          action: 'REBUILD',
          outcome: 'REFUSED',
          outcomeNote: safe.summary,
          verification: 'NOT_APPLICABLE',
          errorCode: safe.code,
        });
        await reopenDiscrepancy(d.ledger, x.id);
      }
    }
  }
}
