// The scheduled reconciliation on the real engines: recently completed campaigns are reconciled once
// (again only after they change), campaigns still changing are left alone, and the ledger gauges are
// published. The lease: two reconciler processes (own instance ids, own pools, own services) over the
// same stores; while one holds the lease the other leaves a scope that IS due alone, and once the
// holder's lease has expired (the holder died) the other takes the pass over.
import { createRegistry } from '../../metrics/registry';
import { openResources, type Resources } from '../../app/resources';
import { systemClock } from '../../shared/clock';
import { silentLogger } from '../../shared/logger';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { fitnessStates, seedProjection, seedSource } from '../../../test/support/reconciliationSeed';
import { reconciliationFrom } from '../../app/wiring/reconciliation';
import type { ReconciliationService } from '../service';
import { scheduledPass, SCHEDULER_LEASE, type ScheduledReconcilerDeps } from './scheduledReconciler';
import { completedScopes } from './completedScopes';
import { scopeKey } from '../scope';

describe('scheduled reconciliation', () => {
  let env: TestEnv;
  let service: ReconciliationService;
  // The second process: its own pools and its own service over the same databases.
  let other: Resources;
  let otherService: ReconciliationService;
  const registry = createRegistry(false);

  beforeAll(async () => {
    env = await createTestEnv({ reconcileCatchUpWaitMs: 500, reconcileRetryBaseMs: 50, reconcileRetryMaxMs: 100 });
    service = reconciliationFrom(env.resources, { registry, logger: silentLogger });
    other = openResources(env.settings);
    otherService = reconciliationFrom(other, { registry: createRegistry(false), logger: silentLogger });
    const hourAgo = new Date(Date.now() - 3600_000);
    const done = fitnessStates({ detectId: 30001, count: 12, firstSequence: 1, updatedAt: hourAgo, correctEvery: 4, deleteEvery: 5 }, 2);
    const active = fitnessStates({ detectId: 30002, count: 4, firstSequence: 100, updatedAt: new Date() }, 2);
    await seedSource(env.resources, [...done, ...active]);
    await seedProjection(env.resources, done);
  });
  afterAll(async () => {
    await otherService?.stop();
    await other?.close();
    await service?.stop();
    await env?.cleanup();
  });

  const window = { quietMs: 600000, lookbackMs: 7 * 24 * 3600_000, extraQuietMs: {}, limit: 10 };
  const deps = (instanceId: string, r: Resources = env.resources, s: ReconciliationService = service): ScheduledReconcilerDeps => ({
    service: s,
    mysql: r.mysql,
    pg: r.pg,
    clock: systemClock,
    logger: silentLogger,
    instanceId,
    intervalMs: 60000,
    window,
  });
  const processB = () => deps('reconciler-b', other, otherService);
  const leaseOwner = async () =>
    (await env.resources.pg('reconciliation_leases').where({ name: SCHEDULER_LEASE }).first())?.owner as string;
  const runsOf = async (scopeKey: string) =>
    (await env.resources.pg('reconciliation_runs').where({ scope_key: scopeKey }).orderBy('id').pluck('requested_by')) as string[];
  const dueNow = async () =>
    (
      await completedScopes(
        { mysql: env.resources.mysql, pg: env.resources.pg, ledger: env.resources.pg },
        { ...window, nowMs: Date.now() },
      )
    ).due.map((c) => scopeKey(c.scope));

  it('reconciles a completed campaign once and skips one still changing', async () => {
    expect(await scheduledPass(deps('reconciler-a'))).toEqual(['fitness:detect=30001']);
    const runs = await env.resources.pg('reconciliation_runs').select('scope_key', 'trigger', 'outcome', 'level_reached');
    expect(runs).toEqual([{ scope_key: 'fitness:detect=30001', trigger: 'SCHEDULE', outcome: 'CLEAN', level_reached: 'CONTENT' }]);
    // Nothing changed since: the campaign is not reconciled again.
    expect(await scheduledPass(deps('reconciler-a'))).toEqual([]);
    const metrics = await registry.metrics();
    expect(metrics).toContain('tidemark_reconciliation_discrepancies_unresolved');
    expect(metrics).toContain('tidemark_repairs_awaiting_verification');
    expect(metrics).toMatch(/tidemark_reconciliation_runs_total\{domain="fitness",trigger="SCHEDULE",outcome="CLEAN"\} 1/);
  });

  it('runs a due scope in the one process holding the lease; the other takes over once the lease has expired', async () => {
    // A campaign completed since the last pass: due for both processes.
    const fresh = fitnessStates({ detectId: 30003, count: 6, firstSequence: 200, updatedAt: new Date(Date.now() - 3600_000) }, 2);
    await seedSource(env.resources, fresh);
    await seedProjection(env.resources, fresh);
    expect(await dueNow()).toEqual(['fitness:detect=30003']);
    expect(await leaseOwner()).toBe('reconciler-a');

    // Process B finds it due but leaves it alone: A holds the lease.
    expect(await scheduledPass(processB())).toEqual([]);
    expect(await runsOf('fitness:detect=30003')).toEqual([]);
    expect(await dueNow()).toEqual(['fitness:detect=30003']);
    expect(await leaseOwner()).toBe('reconciler-a');

    // A's lease runs out (A died: it renews no more; the ttl is the interval plus five minutes, so
    // its expiry is moved to the past rather than waited for). B takes the lease and the pass.
    await env.resources
      .pg('reconciliation_leases')
      .where({ name: SCHEDULER_LEASE })
      .update({ expires_at: env.resources.pg.raw("now() - interval '1 second'") });
    expect(await scheduledPass(processB())).toEqual(['fitness:detect=30003']);
    expect(await leaseOwner()).toBe('reconciler-b');
    expect(await runsOf('fitness:detect=30003')).toEqual(['scheduler:reconciler-b']);

    // Now A is the one left out, with another campaign due.
    const next = fitnessStates({ detectId: 30004, count: 4, firstSequence: 300, updatedAt: new Date(Date.now() - 3600_000) }, 2);
    await seedSource(env.resources, next);
    await seedProjection(env.resources, next);
    expect(await dueNow()).toEqual(['fitness:detect=30004']);
    expect(await scheduledPass(deps('reconciler-a'))).toEqual([]);
    expect(await runsOf('fitness:detect=30004')).toEqual([]);
    expect(await scheduledPass(processB())).toEqual(['fitness:detect=30004']);
    expect(await runsOf('fitness:detect=30004')).toEqual(['scheduler:reconciler-b']);
  });
});
