// The reconciler role's loop: every interval, in one process at a time (a lease in the ledger),
// verify pending repairs, reconcile recently completed scopes at CONTENT level, and refresh the
// ledger gauges. stop() ends the sleep at once and waits for the current pass (the service's own
// stop() drains what the pass started).
import type { Knex } from 'knex';
import type { MysqlShards } from '../../infra/mysql/fromMysql';
import type { Clock } from '../../shared/clock';
import { sleep, type Stoppable } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import { acquireLease } from '../ledger/sql/acquireLease';
import { scopeKey } from '../scope';
import type { ReconciliationService } from '../service';
import { completedScopes, type ScheduleWindow } from './completedScopes';

export interface ScheduledReconcilerDeps {
  service: ReconciliationService;
  mysql: Pick<MysqlShards, 'shards'>;
  pg: Knex;
  clock: Clock;
  logger: Logger;
  instanceId: string;
  intervalMs: number;
  window: Omit<ScheduleWindow, 'nowMs'>;
}

export const SCHEDULER_LEASE = 'reconciliation-scheduler';

/** One pass; returns the scope keys it reconciled (exported for tests). */
export async function scheduledPass(d: ScheduledReconcilerDeps, signal?: AbortSignal): Promise<string[]> {
  const ttl = d.intervalMs + 300000;
  if (!(await acquireLease(d.pg, SCHEDULER_LEASE, d.instanceId, ttl))) return [];
  await d.service.verifyPending();
  const scopes = await completedScopes({ mysql: d.mysql, pg: d.pg, ledger: d.pg }, { ...d.window, nowMs: d.clock.now().getTime() });
  const done: string[] = [];
  for (const { scope } of scopes) {
    if (signal?.aborted || !(await acquireLease(d.pg, SCHEDULER_LEASE, d.instanceId, ttl))) break;
    try {
      const { run } = await d.service.reconcile(scope, 'CONTENT', { trigger: 'SCHEDULE', requestedBy: `scheduler:${d.instanceId}` });
      d.logger.info({ scope: scopeKey(scope), outcome: run.outcome, discrepancies: run.discrepanciesFound }, 'scheduled reconciliation');
      done.push(scopeKey(scope));
    } catch (err) {
      d.logger.warn({ scope: scopeKey(scope), error: summarizeError(err) }, 'scheduled reconciliation failed');
    }
  }
  await d.service.refreshGauges();
  return done;
}

export function startScheduledReconciler(d: ScheduledReconcilerDeps): Stoppable {
  const abort = new AbortController();
  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        await scheduledPass(d, abort.signal);
      } catch (err) {
        d.logger.warn({ error: summarizeError(err) }, 'scheduled reconciliation pass failed');
      }
      await sleep(d.intervalMs, abort.signal);
    }
  })();
  return {
    async stop() {
      abort.abort();
      await loop;
      await d.service.stop();
    },
  };
}
