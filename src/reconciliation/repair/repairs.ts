// Repairs: each discrepancy kind gets its own repair (repair/decideRepair.ts), every repair is one
// audited row, and each is verified by re-running the comparison for its aggregate (or, for a
// rebuild, for its scope). Replays and tombstones are the authoritative state's own events sent to
// the domain topic; the projector applies them through its normal path. Rate-limited.
import type { Knex } from 'knex';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { uint } from '../../infra/clickhouse/literal';
import type { Domain, DomainEvent } from '../../publication/event';
import type { Clock } from '../../shared/clock';
import { summarizeError } from '../../shared/redact';
import { fieldsOf } from '../canonical/fields';
import { classifyOne } from '../classify';
import { claimForRepair, reopenDiscrepancy, resolveDiscrepancy } from '../ledger/sql/discrepancyTransitions';
import { listDiscrepancies, pendingVerifications } from '../ledger/sql/ledgerQueries';
import { insertRepairs, recordVerification, type NewRepair } from '../ledger/sql/repairRows';
import type { DiscrepancyRecord, RepairRecord } from '../ledger/records';
import type { ReconciliationMetrics } from '../metrics';
import type { SourceReader, TargetReader } from '../ports';
import { scopeFromJson, type Scope } from '../scope';
import { PROJECTIONS } from '../target/projectionMapping';
import { deleteRows } from '../target/sql/deleteRows';
import { decideRepair } from './decideRepair';
import type { RateLimiter } from './rateLimiter';
import type { RepairSink } from './repairSink';

export interface RepairDeps {
  ledger: Knex;
  ch: ClickHouseClient;
  database: string;
  sources: Record<Domain, SourceReader>;
  targets: Record<Domain, TargetReader>;
  sink: RepairSink;
  limiter: RateLimiter;
  clock: Clock;
  metrics: ReconciliationMetrics;
  verifyTimeoutMs: number;
  /** Starts a rebuild of a scope for content mismatches; resolves with its id, or throws (e.g. CONFLICT). */
  rebuild(scope: Scope, requestedBy: string, reason: string): Promise<number>;
  signal?: AbortSignal;
}

function repairOfDiscrepancy(d: DiscrepancyRecord, requestedBy: string): Omit<NewRepair, 'action' | 'outcome' | 'outcomeNote' | 'verification'> {
  return { discrepancyId: d.id, domain: d.domain, scopeKey: d.scopeKey, scope: d.scope, reason: `discrepancy ${d.kind}`, aggregateId: d.aggregateId, sourceVersion: d.sourceVersion, targetVersion: d.targetVersion, eventId: null, rebuildId: null, requestedBy };
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const i of items) m.set(key(i), [...(m.get(key(i)) ?? []), i]);
  return m;
}

/** Dispatches the repair of each discrepancy; returns the audit rows (verification PENDING where sent). */
export async function repairDiscrepancies(d: RepairDeps, ids: number[], requestedBy: string): Promise<RepairRecord[]> {
  const found = await listDiscrepancies(d.ledger, { ids, first: ids.length });
  const claimed = new Set(await claimForRepair(d.ledger, found.filter((x) => x.status === 'OPEN').map((x) => x.id)));
  const out: NewRepair[] = [];
  for (const x of found.filter((f) => !claimed.has(f.id)))
    out.push({ ...repairOfDiscrepancy(x, requestedBy), action: 'INVESTIGATE', outcome: 'REFUSED', outcomeNote: `not open (status ${x.status})`, verification: 'NOT_APPLICABLE' });

  for (const group of groupBy(found.filter((x) => claimed.has(x.id)), (x) => x.scopeKey).values()) {
    const before = out.length;
    try {
      await repairGroup(d, group, requestedBy, out);
    } catch (err) {
      // Whatever failed (a store, Kafka), every claimed discrepancy of the group without a repair row
      // gets one (FAILED, with a safe summary) and is reopened: nothing stays REPAIRING silently.
      const safe = summarizeError(err);
      const done = new Set(out.slice(before).map((r) => r.discrepancyId));
      for (const x of group.filter((g) => !done.has(g.id))) {
        out.push({ ...repairOfDiscrepancy(x, requestedBy), action: x.kind === 'CONTENT_MISMATCH' ? 'REBUILD' : x.kind === 'UNEXPECTED_ROW' ? 'INVESTIGATE' : 'REPLAY', outcome: 'FAILED', outcomeNote: 'the repair could not be carried out', verification: 'NOT_APPLICABLE', errorCode: safe.code, errorSummary: safe.summary });
        await reopenDiscrepancy(d.ledger, x.id);
      }
    }
  }
  const stored = await insertRepairs(d.ledger, out, d.clock.now());
  for (const r of stored) d.metrics.repairs.inc({ domain: r.domain, action: r.action, outcome: r.outcome });
  return stored;
}

async function repairGroup(d: RepairDeps, group: DiscrepancyRecord[], requestedBy: string, out: NewRepair[]): Promise<void> {
  const scope = scopeFromJson(group[0]!.scope);
  const replayable = group.filter((x) => x.kind !== 'CONTENT_MISMATCH' && x.kind !== 'UNEXPECTED_ROW');
  const current = replayable.length ? new Map((await d.sources[scope.domain].events(scope, replayable.map((x) => x.aggregateId))).map((e) => [e.aggregateId, e])) : new Map<string, DomainEvent>();
  const toSend: { x: DiscrepancyRecord; event: DomainEvent; action: 'REPLAY' | 'TOMBSTONE' }[] = [];
  const rebuildFor: DiscrepancyRecord[] = [];
  for (const x of group) {
    const decision = decideRepair(x.kind, current.get(x.aggregateId));
    if ('refuse' in decision) {
      out.push({ ...repairOfDiscrepancy(x, requestedBy), action: decision.action, outcome: 'REFUSED', outcomeNote: decision.refuse, verification: 'NOT_APPLICABLE' });
      await reopenDiscrepancy(d.ledger, x.id);
    } else if (decision.action === 'INVESTIGATE') {
      out.push({ ...repairOfDiscrepancy(x, requestedBy), action: 'INVESTIGATE', outcome: 'REFUSED', outcomeNote: decision.note, verification: 'NOT_APPLICABLE' });
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
        out.push({ ...repairOfDiscrepancy(s.x, requestedBy), action: s.action, sourceVersion: s.event.version, eventId: s.event.eventId, outcome: 'SENT', outcomeNote: `sent ${s.event.eventId} (version ${s.event.version}) to the ${scope.domain} topic`, verification: 'PENDING' });
    } catch (err) {
      const safe = summarizeError(err);
      for (const s of slice) {
        out.push({ ...repairOfDiscrepancy(s.x, requestedBy), action: s.action, sourceVersion: s.event.version, eventId: s.event.eventId, outcome: 'FAILED', outcomeNote: 'publishing to Kafka failed', verification: 'NOT_APPLICABLE', errorCode: safe.code, errorSummary: safe.summary });
        await reopenDiscrepancy(d.ledger, s.x.id);
      }
    }
  }

  if (rebuildFor.length) {
    try {
      const rebuildId = await d.rebuild(scope, requestedBy, `CONTENT_MISMATCH of ${rebuildFor.length} aggregate(s)`);
      for (const x of rebuildFor) out.push({ ...repairOfDiscrepancy(x, requestedBy), action: 'REBUILD', rebuildId, outcome: 'SENT', outcomeNote: `rebuild ${rebuildId} of ${group[0]!.scopeKey} started`, verification: 'PENDING' });
    } catch (err) {
      const safe = summarizeError(err);
      for (const x of rebuildFor) {
        out.push({ ...repairOfDiscrepancy(x, requestedBy), action: 'REBUILD', outcome: 'REFUSED', outcomeNote: safe.summary, verification: 'NOT_APPLICABLE', errorCode: safe.code });
        await reopenDiscrepancy(d.ledger, x.id);
      }
    }
  }
}

/**
 * Verifies pending repairs (not rebuilds: those verify their whole scope themselves) by comparing the
 * aggregate's current authoritative state with the projection's, at CONTENT level. Returns how many
 * are still pending.
 */
export async function verifyRepairs(d: RepairDeps, repairIds?: number[]): Promise<number> {
  const pending = await pendingVerifications(d.ledger, 500, repairIds);
  let still = 0;
  for (const group of groupBy(pending, (r) => r.scopeKey).values()) {
    const scope = scopeFromJson(group[0]!.scope);
    const ids = [...new Set(group.map((r) => r.aggregateId).filter((i): i is string => !!i))];
    const filter = { ids };
    const [s, t] = await Promise.all([d.sources[scope.domain].states(scope, 'CONTENT', filter), d.targets[scope.domain].states(scope, 'CONTENT', filter)]);
    const sById = new Map(s.map((x) => [x.id, x]));
    const tById = new Map(t.map((x) => [x.id, x]));
    const now = d.clock.now();
    for (const r of group) {
      const diff = r.aggregateId ? classifyOne(r.aggregateId, sById.get(r.aggregateId), tById.get(r.aggregateId), fieldsOf(scope.domain, 'CONTENT')) : undefined;
      if (!diff) {
        await recordVerification(d.ledger, r.id, 'PASSED', now, `verified: source and projection agree`);
        if (r.discrepancyId) await resolveDiscrepancy(d.ledger, r.discrepancyId, r.action === 'REMOVE_UNEXPECTED' ? 'REMOVED_BY_OPERATOR' : 'REPAIRED', now);
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

/**
 * The explicit, audited operator action for UNEXPECTED_ROW: removes the projection rows the source
 * cannot account for (every version of an aggregate the source never had, or only the versions above
 * the source's), then verifies. Refused when the row is no longer unexpected.
 */
export async function removeUnexpectedRows(d: RepairDeps, ids: number[], reason: string, requestedBy: string): Promise<RepairRecord[]> {
  const found = await listDiscrepancies(d.ledger, { ids, first: ids.length });
  const eligible = found.filter((x) => x.kind === 'UNEXPECTED_ROW' && x.status === 'OPEN');
  const claimed = new Set(await claimForRepair(d.ledger, eligible.map((x) => x.id)));
  const out: NewRepair[] = [];
  const base = (x: DiscrepancyRecord) => ({ ...repairOfDiscrepancy(x, requestedBy), action: 'REMOVE_UNEXPECTED' as const, reason: `operator: ${reason}` });
  for (const x of found.filter((f) => !claimed.has(f.id)))
    out.push({ ...base(x), outcome: 'REFUSED', outcomeNote: x.kind !== 'UNEXPECTED_ROW' ? `only UNEXPECTED_ROW discrepancies can be removed (this is ${x.kind})` : `not open (status ${x.status})`, verification: 'NOT_APPLICABLE' });
  for (const x of found.filter((f) => claimed.has(f.id))) {
    const scope = scopeFromJson(x.scope);
    const m = PROJECTIONS[scope.domain];
    const filter = { ids: [x.aggregateId] };
    const [s, t] = await Promise.all([d.sources[scope.domain].states(scope, 'IDS', filter), d.targets[scope.domain].states(scope, 'IDS', filter)]);
    const now = classifyOne(x.aggregateId, s[0], t[0], fieldsOf(scope.domain, 'IDS'));
    if (now?.kind !== 'UNEXPECTED_ROW') {
      out.push({ ...base(x), outcome: 'REFUSED', outcomeNote: now ? `no longer unexpected: now ${now.kind}` : 'no longer unexpected: source and projection agree', verification: 'NOT_APPLICABLE' });
      if (now) await reopenDiscrepancy(d.ledger, x.id);
      else await resolveDiscrepancy(d.ledger, x.id, 'NOT_FOUND_AGAIN', d.clock.now());
      continue;
    }
    try {
      await deleteRows(d.ch, d.database, m.table, `${m.idsWhere([x.aggregateId])}${s[0] ? ` AND version > ${uint(s[0].version)}` : ''}`);
      out.push({ ...base(x), targetVersion: t[0]?.version ?? null, sourceVersion: s[0]?.version ?? null, outcome: 'COMPLETED', outcomeNote: s[0] ? `removed versions above ${s[0].version}` : 'removed every version (no source)', verification: 'PENDING' });
    } catch (err) {
      const safe = summarizeError(err);
      out.push({ ...base(x), outcome: 'FAILED', outcomeNote: 'the deletion failed', verification: 'NOT_APPLICABLE', errorCode: safe.code, errorSummary: safe.summary });
      await reopenDiscrepancy(d.ledger, x.id);
    }
  }
  const stored = await insertRepairs(d.ledger, out, d.clock.now());
  for (const r of stored) d.metrics.repairs.inc({ domain: r.domain, action: r.action, outcome: r.outcome });
  const toVerify = stored.filter((r) => r.verification === 'PENDING').map((r) => r.id);
  if (toVerify.length) await verifyRepairs(d, toVerify);
  return stored;
}
