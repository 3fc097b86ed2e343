// Expired events are reconciled at once. The projector records the offset ranges Kafka's retention
// deleted before it applied them (projection_expired_offsets, OPEN), with the window of source
// commit times the lost events may carry. The reconciler takes each open range, finds the scopes
// holding a record whose latest change lies in that window (fitness campaigns, order hours: the
// records whose latest event may be lost), and reconciles every one of them that has no CLEAN
// CONTENT run since the detection (trigger EXPIRED_EVENTS). What lost events leave behind (a missing
// record, an older version, a deletion not applied) is repaired right away: these replays are
// already decided, the events are known to be lost. The scope is then reconciled again. Once every
// scope of the range is CLEAN, the range is RESOLVED and freshness leaves EVENTS_EXPIRED. A scope that
// keeps changing (SCOPE_CHANGED) or holds other kinds of discrepancy keeps the range open until it
// settles or an operator repairs it.
import type { Knex } from 'knex';
import { reconciledDomain } from '../../domains/reconciledDomains';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { MysqlShards } from '../../infra/mysql/fromMysql';
import { insertExpiredOffsets, type ExpiredRangeRow } from '../../projections/sql/insertExpiredOffsets';
import { openExpiredRanges } from '../../projections/sql/readExpiredOffsets';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import { verifiedSince } from '../ledger/sql/scopeRegistry';
import type { DiscrepancyKind } from '../model';
import { scopeKey, type Scope } from '../scope';
import type { ReconciliationService } from '../service';

/** What lost events leave behind, and a replay or tombstone of the current state repairs. */
const LEFT_BY_LOST_EVENTS: ReadonlySet<DiscrepancyKind> = new Set(['MISSING', 'STALE_VERSION', 'DELETION_NOT_APPLIED']);

export interface ExpiredEventsDeps {
  service: ReconciliationService;
  mysql: Pick<MysqlShards, 'shards'>;
  pg: Knex;
  ch: ClickHouseClient;
  database: string;
  /** The projector's consumer group (the ranges' `consumer`). */
  consumer: string;
  clock: Clock;
  logger: Logger;
  requestedBy: string;
  /** Asked before each reconciliation: false once the pass must stop (lease lost, stopping). */
  mayGoOn(): Promise<boolean>;
}

/** The scopes holding a record whose latest change lies in the range's window. */
export async function scopesOfWindow(
  d: Pick<ExpiredEventsDeps, 'mysql' | 'pg'>,
  r: Pick<ExpiredRangeRow, 'domain' | 'windowFromMs' | 'windowToMs'>,
): Promise<Scope[]> {
  return reconciledDomain(r.domain).scopesChangedIn(d, r.windowFromMs, r.windowToMs);
}

async function reconcileAndRepair(d: ExpiredEventsDeps, scope: Scope): Promise<boolean> {
  const first = await d.service.reconcile(scope, 'CONTENT', { trigger: 'EXPIRED_EVENTS', requestedBy: d.requestedBy });
  if (first.run.outcome !== 'DISCREPANCIES') return first.run.outcome === 'CLEAN';
  const lost = first.discrepancies.filter((x) => x.status === 'OPEN' && LEFT_BY_LOST_EVENTS.has(x.kind)).map((x) => x.id);
  if (lost.length === 0) return false;
  const repairs = await d.service.repair(lost, d.requestedBy);
  d.logger.info(
    { scope: scopeKey(scope), repairs: repairs.length, verified: repairs.filter((x) => x.verification === 'PASSED').length },
    'expired events replayed',
  );
  const again = await d.service.reconcile(scope, 'CONTENT', { trigger: 'EXPIRED_EVENTS', requestedBy: d.requestedBy });
  return again.run.outcome === 'CLEAN';
}

/** One pass over the open ranges; returns how many were resolved and how many remain open. */
export async function settleExpiredEvents(d: ExpiredEventsDeps): Promise<{ resolved: number; open: number }> {
  let resolved = 0;
  let open = 0;
  for (const range of await openExpiredRanges(d.ch, d.database, d.consumer)) {
    const scopes = await scopesOfWindow(d, range);
    const keys = scopes.map(scopeKey);
    const clean = await verifiedSince(d.pg, keys, new Date(range.detectedAtMs));
    for (const scope of scopes) {
      if (clean.has(scopeKey(scope))) continue;
      if (!(await d.mayGoOn())) return { resolved, open: open + 1 };
      try {
        if (await reconcileAndRepair(d, scope)) clean.add(scopeKey(scope));
      } catch (err) {
        d.logger.warn({ scope: scopeKey(scope), error: summarizeError(err) }, 'reconciliation of expired events failed');
      }
    }
    if (keys.every((k) => clean.has(k))) {
      const now = d.clock.now().getTime();
      await insertExpiredOffsets(d.ch, d.database, d.consumer, [
        {
          ...range,
          status: 'RESOLVED',
          resolvedAtMs: now,
          note: `${keys.length} scope(s) reconciled CLEAN`,
          version: Math.max(now, range.version + 1),
        },
      ]);
      d.logger.info(
        { topic: range.topic, partition: range.partition, from: range.fromOffset, to: range.toOffset, scopes: keys.length },
        'expired events reconciled; range resolved',
      );
      resolved++;
    } else open++;
  }
  return { resolved, open };
}
