// The reconciler role's loop: every interval, in one process at a time (a lease in the ledger),
// verify pending repairs, reconcile the scopes of events that expired unapplied (expiredEvents.ts;
// also between passes, every expired-events poll, so that starts at once), reconcile recently
// completed scopes at CONTENT level, re-verify unchanged scopes in rotation (oldest verification
// first, within a row budget), and refresh the ledger gauges. On start and every tick (no lease),
// rebuilds whose process died are finished (rebuild/recoverRebuilds.ts). stop() ends the sleep at
// once, waits for the current pass (the service's own stop() drains what the pass started), then gives
// the lease back so another reconciler takes the schedule over on its next tick, not at expiry.
import type { Knex } from 'knex';
import type { MysqlShards } from '../../infra/mysql/fromMysql';
import type { Clock } from '../../shared/clock';
import { sleep, type Stoppable } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import { acquireLease } from '../ledger/sql/acquireLease';
import { releaseLease } from '../ledger/sql/releaseLease';
import { scopeKey } from '../scope';
import type { ReconciliationService } from '../service';
import { completedScopes, type ScheduleWindow } from './completedScopes';
import { rotationScopes, type RotationSettings } from './rotation';
import { settleExpiredEvents, type ExpiredEventsDeps } from './expiredEvents';
import type { RunTrigger } from '../model';
import type { Scope } from '../scope';

export interface ScheduledReconcilerDeps {
  service: ReconciliationService;
  mysql: Pick<MysqlShards, 'shards'>;
  pg: Knex;
  clock: Clock;
  logger: Logger;
  instanceId: string;
  intervalMs: number;
  window: Omit<ScheduleWindow, 'nowMs'>;
  /** The rolling re-verification of unchanged scopes (absent: none). */
  rotation?: RotationSettings;
  /** Where the projector records expired offsets, and how often to look between passes (absent: not handled). */
  expired?: Pick<ExpiredEventsDeps, 'ch' | 'database' | 'consumer'> & { pollMs: number };
}

export const SCHEDULER_LEASE = 'reconciliation-scheduler';

const leaseTtl = (d: ScheduledReconcilerDeps) => d.intervalMs + 300000;

/** Reconciles the scopes of expired events (under the lease); false when another process holds it. */
export async function expiredEventsPass(d: ScheduledReconcilerDeps, signal?: AbortSignal): Promise<boolean> {
  if (!d.expired || !(await acquireLease(d.pg, SCHEDULER_LEASE, d.instanceId, leaseTtl(d)))) return false;
  const r = await settleExpiredEvents({
    ...d.expired,
    service: d.service,
    mysql: d.mysql,
    pg: d.pg,
    clock: d.clock,
    logger: d.logger,
    requestedBy: `scheduler:${d.instanceId}`,
    mayGoOn: async () => !signal?.aborted && (await acquireLease(d.pg, SCHEDULER_LEASE, d.instanceId, leaseTtl(d))),
  });
  if (r.resolved) await d.service.refreshGauges();
  return true;
}

/** One pass; returns the scope keys it reconciled (exported for tests). */
export async function scheduledPass(d: ScheduledReconcilerDeps, signal?: AbortSignal): Promise<string[]> {
  const ttl = leaseTtl(d);
  if (!(await acquireLease(d.pg, SCHEDULER_LEASE, d.instanceId, ttl))) return [];
  await d.service.verifyPending();
  try {
    await expiredEventsPass(d, signal);
  } catch (err) {
    d.logger.warn({ error: summarizeError(err) }, 'reconciliation of expired events failed');
  }
  const nowMs = d.clock.now().getTime();
  const { due, active, quietBeforeMs } = await completedScopes({ mysql: d.mysql, pg: d.pg, ledger: d.pg }, { ...d.window, nowMs });
  const done: string[] = [];
  const run = async (scope: Scope, trigger: RunTrigger): Promise<boolean> => {
    if (signal?.aborted || !(await acquireLease(d.pg, SCHEDULER_LEASE, d.instanceId, ttl))) return false;
    try {
      const { run } = await d.service.reconcile(scope, 'CONTENT', { trigger, requestedBy: `scheduler:${d.instanceId}` });
      d.logger.info(
        { scope: scopeKey(scope), trigger, outcome: run.outcome, discrepancies: run.discrepanciesFound },
        'scheduled reconciliation',
      );
      done.push(scopeKey(scope));
    } catch (err) {
      d.logger.warn({ scope: scopeKey(scope), trigger, error: summarizeError(err) }, 'scheduled reconciliation failed');
    }
    return true;
  };
  let going = true;
  for (const { scope } of due) if (!(going = await run(scope, 'SCHEDULE'))) break;
  if (going && d.rotation) {
    const rows = (d.rotation.rowsPerHour * d.intervalMs) / 3600000;
    const exclude = new Set([...due.map((c) => scopeKey(c.scope)), ...active]);
    const rotating = await rotationScopes({ mysql: d.mysql, pg: d.pg, ledger: d.pg }, d.rotation, { nowMs, rows, quietBeforeMs, exclude });
    for (const { scope } of rotating) if (!(await run(scope, 'ROTATION'))) break;
  }
  await d.service.refreshGauges();
  return done;
}

/**
 * Finishes rebuilds whose process died (service.recoverAbandonedRebuilds), on start and every tick.
 * No lease: each rebuild is claimed on its own, so every reconciler may look. Never fatal.
 */
export async function recoverRebuildsPass(d: Pick<ScheduledReconcilerDeps, 'service' | 'logger'>): Promise<void> {
  try {
    await d.service.recoverAbandonedRebuilds();
  } catch (err) {
    d.logger.warn({ error: summarizeError(err) }, 'recovering abandoned rebuilds failed');
  }
}

export function startScheduledReconciler(d: ScheduledReconcilerDeps): Stoppable {
  const abort = new AbortController();
  const tickMs = Math.min(d.intervalMs, d.expired?.pollMs ?? d.intervalMs);
  const loop = (async () => {
    let nextPassMs = 0;
    while (!abort.signal.aborted) {
      await recoverRebuildsPass(d);
      const now = d.clock.now().getTime();
      try {
        if (now >= nextPassMs) {
          nextPassMs = now + d.intervalMs;
          await scheduledPass(d, abort.signal);
        } else await expiredEventsPass(d, abort.signal);
      } catch (err) {
        d.logger.warn({ error: summarizeError(err) }, 'scheduled reconciliation pass failed');
      }
      await sleep(tickMs, abort.signal);
    }
  })();
  return {
    async stop() {
      // The service is not ours to stop: it is the process's, shared with the gateway.
      abort.abort();
      await loop;
      // Only after the pass: while it runs the lease is ours. Best effort: an expired lease frees itself.
      await releaseLease(d.pg, SCHEDULER_LEASE, d.instanceId).catch((err) =>
        d.logger.warn({ error: summarizeError(err) }, 'releasing the reconciliation lease failed'),
      );
    },
  };
}
