// The scheduled reconciliation on the real engines: recently completed campaigns are reconciled once
// (again only after they change), campaigns still changing are left alone, one process at a time
// holds the pass, and the ledger gauges are published.
import { createRegistry } from '../../metrics/registry';
import { systemClock } from '../../shared/clock';
import { silentLogger } from '../../shared/logger';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { fitnessStates, seedProjection, seedSource } from '../../../test/support/reconciliationSeed';
import { reconciliationFrom } from '../../app/wiring/reconciliation';
import type { ReconciliationService } from '../service';
import { scheduledPass, type ScheduledReconcilerDeps } from './scheduledReconciler';

describe('scheduled reconciliation', () => {
  let env: TestEnv;
  let service: ReconciliationService;
  const registry = createRegistry(false);

  beforeAll(async () => {
    env = await createTestEnv({ reconcileCatchUpWaitMs: 500, reconcileRetryBaseMs: 50, reconcileRetryMaxMs: 100 });
    service = reconciliationFrom(env.resources, { registry, logger: silentLogger });
    const hourAgo = new Date(Date.now() - 3600_000);
    const done = fitnessStates({ detectId: 30001, count: 12, firstSequence: 1, updatedAt: hourAgo, correctEvery: 4, deleteEvery: 5 }, 2);
    const active = fitnessStates({ detectId: 30002, count: 4, firstSequence: 100, updatedAt: new Date() }, 2);
    await seedSource(env.resources, [...done, ...active]);
    await seedProjection(env.resources, done);
  });
  afterAll(async () => {
    await service?.stop();
    await env?.cleanup();
  });

  const deps = (instanceId: string): ScheduledReconcilerDeps => ({
    service,
    mysql: env.resources.mysql,
    pg: env.resources.pg,
    clock: systemClock,
    logger: silentLogger,
    instanceId,
    intervalMs: 60000,
    window: { quietMs: 600000, lookbackMs: 7 * 24 * 3600_000, extraQuietMs: {}, limit: 10 },
  });

  it('reconciles a completed campaign once, skips one still changing, and holds the pass in one process', async () => {
    expect(await scheduledPass(deps('reconciler-a'))).toEqual(['fitness:detect=30001']);
    const runs = await env.resources.pg('reconciliation_runs').select('scope_key', 'trigger', 'outcome', 'level_reached');
    expect(runs).toEqual([{ scope_key: 'fitness:detect=30001', trigger: 'SCHEDULE', outcome: 'CLEAN', level_reached: 'CONTENT' }]);
    // Another process cannot take the pass while the lease is held.
    expect(await scheduledPass(deps('reconciler-b'))).toEqual([]);
    // Nothing changed since: the campaign is not reconciled again.
    expect(await scheduledPass(deps('reconciler-a'))).toEqual([]);
    const metrics = await registry.metrics();
    expect(metrics).toContain('tidemark_reconciliation_discrepancies_unresolved');
    expect(metrics).toContain('tidemark_repairs_awaiting_verification');
    expect(metrics).toMatch(/tidemark_reconciliation_runs_total\{domain="fitness",trigger="SCHEDULE",outcome="CLEAN"\} 1/);
  });
});
