// The rolling re-verification on the real engines, through the reconciler role and its settings:
// two campaigns that completed long ago (outside the lookback, so the changed-scope schedule never
// looks at them) are registered and verified by the rotation, never verified first and then oldest
// verification first, one per pass (the row budget); a row corrupted in ClickHouse afterwards, with
// no source change at all, is found by the next rotation of its campaign.
import { startTidemark, type Tidemark } from '../../app/start';
import { ident, uint } from '../../infra/clickhouse/literal';
import { waitFor } from '../../shared/lifecycle';
import { fitnessStates, seedProjection, seedSource, FAST_SCHEDULE_SETTINGS } from '../../../test/support/reconciliationSeed';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { eventOfState } from '../../domains/fitness/reconciliation/fitnessSource';
import { projectionLineOf } from '../rebuild/projectionLines';
import { insertJsonEachRow } from '../../projections/sql/insertJsonEachRow';
import { fromReconciliationLedger } from '../ledger/ledgerHealth';
import { orderHours } from '../../domains/orders/reconciliation/sql/orderHours';

jest.setTimeout(90000);

describe('rolling re-verification', () => {
  let env: TestEnv;
  let app: Tidemark;
  const longAgo = new Date(Date.now() - 10 * 24 * 3600_000);
  const a = fitnessStates({ detectId: 31001, count: 8, firstSequence: 1, updatedAt: longAgo }, 2);
  const b = fitnessStates({ detectId: 31002, count: 6, firstSequence: 50, updatedAt: longAgo, correctEvery: 3 }, 2);

  beforeAll(async () => {
    env = await createTestEnv(FAST_SCHEDULE_SETTINGS);
    await seedSource(env.resources, [...a, ...b]);
    await seedProjection(env.resources, [...a, ...b]);
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const rotationRuns = async () =>
    (await env.resources
      .pg('reconciliation_runs')
      .where({ trigger: 'ROTATION' })
      .orderBy('id')
      .select('scope_key', 'outcome', 'revision_before', 'started_at')) as {
      scope_key: string;
      outcome: string | null;
      revision_before: { versionSum: number } | null;
      started_at: Date;
    }[];

  it('verifies never verified scopes first, one per pass, then re-verifies the oldest', async () => {
    app = await startTidemark({ ...env.settings, roles: ['reconciler'] }, { migrate: false });
    await waitFor(async () => (await rotationRuns()).filter((r) => r.outcome === 'CLEAN').length >= 4, {
      timeoutMs: 30000,
      intervalMs: 100,
      what: 'two rounds of rotation',
    });
    const runs = (await rotationRuns()).filter((r) => r.outcome !== null);
    // Never verified first (both, in key order), then always the one verified longest ago.
    expect(runs.slice(0, 4).map((r) => r.scope_key)).toEqual([
      'fitness:detect=31001',
      'fitness:detect=31002',
      'fitness:detect=31001',
      'fitness:detect=31002',
    ]);
    // A scope is not due before half the period: the two rounds are at least 2 s apart.
    expect(new Date(runs[2]!.started_at).getTime() - new Date(runs[0]!.started_at).getTime()).toBeGreaterThanOrEqual(2000);
    const registry = await env.resources
      .pg('reconciliation_scopes')
      .orderBy('scope_key')
      .select('scope_key', 'aggregates', 'last_verified_at');
    expect(registry.map((r) => [r.scope_key, r.aggregates, r.last_verified_at !== null])).toEqual([
      ['fitness:detect=31001', 8, true],
      ['fitness:detect=31002', 6, true],
    ]);
  });

  it('finds a row corrupted in an old, verified, unchanged campaign without any source change', async () => {
    const victim = a[5]!;
    const before = (await rotationRuns()).length;
    await insertJsonEachRow(env.resources.clickhouse, env.settings.clickhouseDatabase, 'fitness_results', [
      projectionLineOf(eventOfState({ ...victim, schoolId: victim.schoolId + 500 }), Date.now()),
    ]);

    const found = await waitFor(
      async () => {
        const d = await env.resources
          .pg('reconciliation_discrepancies')
          .where({ aggregate_id: String(victim.dataId) })
          .first();
        return d ?? undefined;
      },
      { timeoutMs: 30000, intervalMs: 100, what: 'the rotation finding the corrupted row' },
    );
    expect(found).toMatchObject({
      kind: 'CONTENT_MISMATCH',
      scope_key: 'fitness:detect=31001',
      status: 'OPEN',
      differing_fields: ['schoolId'],
    });
    const run = await env.resources.pg('reconciliation_runs').where({ id: found.first_run_id }).first();
    expect(run).toMatchObject({ trigger: 'ROTATION', outcome: 'DISCREPANCIES', scope_key: 'fitness:detect=31001' });
    // The source never changed: every rotation run of the campaign saw the same revision.
    const sums = new Set(
      (await rotationRuns())
        .filter((r) => r.scope_key === 'fitness:detect=31001' && r.revision_before)
        .map((r) => r.revision_before!.versionSum),
    );
    expect(sums.size).toBe(1);
    expect((await rotationRuns()).length).toBeGreaterThan(before);

    const rs = await env.resources.clickhouse.query({
      query: `SELECT count() AS n FROM ${ident(env.settings.clickhouseDatabase)}.fitness_results WHERE data_id = ${uint(victim.dataId)}`,
      format: 'JSONEachRow',
    });
    expect(Number((await rs.json<{ n: string }>())[0]!.n)).toBe(2);
    const health = await fromReconciliationLedger(env.resources.pg)('fitness');
    expect(health.scopesNeverVerified).toBe(0);
    expect(health.oldestVerificationAgeSeconds).toBeGreaterThanOrEqual(0);
    expect(health.oldestVerificationAgeSeconds).toBeLessThan(60);
    const metrics = await app.registry.metrics();
    expect(metrics).toMatch(/tidemark_reconciliation_oldest_verification_age_seconds\{domain="fitness"\} \d/);
  });

  it('lists every UTC hour that holds orders created before the cutoff', async () => {
    const day = Date.UTC(2026, 0, 5);
    const at = (h: number, m: number) => new Date(day + h * 3600_000 + m * 60_000);
    const order = (n: number, createdAt: Date) => ({
      order_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      customer_id: 'c',
      currency: 'EUR',
      items: JSON.stringify([]),
      total: '0.0000',
      item_count: 0,
      idempotency_key: `rot-${n}`,
      request_hash: '0'.repeat(64),
      created_at: createdAt,
    });
    await env.resources
      .pg('orders')
      .insert([order(1, at(9, 59)), order(2, at(10, 15)), order(3, at(10, 40)), order(4, at(13, 0)), order(5, at(15, 30))]);
    const hours = await orderHours(env.resources.pg, at(15, 0));
    expect(hours.map((h) => h.toISOString())).toEqual([at(9, 0), at(10, 0), at(13, 0)].map((d) => d.toISOString()));
  });
});
