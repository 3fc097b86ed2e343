// The rolling re-verification over order windows (one scope per complete UTC hour of orders), through
// the reconciler role on its own timer: three hours of orders placed long ago (outside the lookback, so
// only the rotation looks at them), projected into ClickHouse as the projector writes them (the
// domain's own event builder over the stored orders, then the projector's mapping and row format).
// Two hours carry verifications recorded days ago, in an order other than their keys', the third none:
// the rotation takes the never verified hour first, then the one verified longest ago, each ends CLEAN
// with its last_verified_at set, and then moves on to the next, round after round.
import { FAST_SCHEDULE_SETTINGS } from '../../../test/support/reconciliationSeed';
import { startTidemark, type Tidemark } from '../../app/start';
import { waitFor } from '../../shared/lifecycle';
import { orderPlacedEvent } from '../../domains/orders/events';
import { ORDERS, type OrderRow } from '../../domains/orders/projection/ordersTable';
import { readOrders } from '../../domains/orders/reconciliation/sql/readAuthoritative';
import { orderWindowScope, windowKey } from '../../domains/orders/reconciliation/windowScope';
import { insertJsonEachRow } from '../../projections/sql/insertJsonEachRow';
import { rowLine } from '../../projections/sql/insertRows';
import { recordScopeRun } from '../ledger/sql/scopeRegistry';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { projectedRows } from '../../../test/support/projectedRows';

jest.setTimeout(120000);

const HOUR = 3600_000;

describe('rolling re-verification of order windows', () => {
  let env: TestEnv;
  let app: Tidemark | undefined;
  // Three UTC hours ten days ago, the middle one skipped: 08:00, 09:00 and 11:00 of that day.
  const day = Math.floor((Date.now() - 10 * 24 * HOUR) / (24 * HOUR)) * 24 * HOUR;
  const hours = [8, 9, 11].map((h) => new Date(day + h * HOUR));
  const scopes = hours.map((h) => orderWindowScope(h, new Date(h.getTime() + HOUR)));
  const keys = scopes.map(windowKey);

  beforeAll(async () => {
    env = await createTestEnv(FAST_SCHEDULE_SETTINGS);
    let n = 0;
    const order = (at: Date) => {
      n += 1;
      const items = [{ sku: `SKU-${n}`, quantity: n, unitPrice: '4.2500' }];
      return {
        order_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        customer_id: `customer-${n % 2}`,
        currency: 'EUR',
        items: JSON.stringify(items),
        total: (4.25 * n).toFixed(4),
        item_count: n,
        idempotency_key: `order-rotation-${n}`,
        request_hash: '0'.repeat(64),
        created_at: at,
      };
    };
    // Two or three orders in each hour.
    await env.resources
      .pg('orders')
      .insert(hours.flatMap((h, i) => Array.from({ length: 2 + (i % 2) }, (_, k) => order(new Date(h.getTime() + (k * 20 + 5) * 60_000)))));
    // The projection rows: the domain's event for each stored order, through the projector's mapping.
    const stored = await readOrders(env.resources.pg, orderWindowScope(hours[0]!, new Date(hours[2]!.getTime() + HOUR)));
    expect(stored).toHaveLength(7);
    const rows = projectedRows<OrderRow>(stored.map((o) => orderPlacedEvent(o, 1)));
    await insertJsonEachRow(
      env.resources.clickhouse,
      env.settings.clickhouseDatabase,
      ORDERS.name,
      rows.map((r) => rowLine(ORDERS, r)),
    );
    // Verified three days ago (09:00) and one day ago (08:00) by earlier runs; 11:00 never.
    for (const [i, daysAgo] of [
      [1, 3],
      [0, 1],
    ] as const) {
      const at = new Date(Date.now() - daysAgo * 24 * HOUR);
      const r = {
        runId: 900 + i,
        outcome: 'CLEAN',
        levelReached: 'CONTENT',
        aggregates: 2 + (i % 2),
        excluded: 0,
        startedAt: at,
        finishedAt: at,
      } as const;
      await recordScopeRun(env.resources.pg, scopes[i]!, r);
    }
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const rotationRuns = async () =>
    (await env.resources
      .pg('reconciliation_runs')
      .where({ trigger: 'ROTATION' })
      .whereNotNull('outcome')
      .orderBy('id')
      .select('scope_key', 'outcome', 'started_at')) as {
      scope_key: string;
      outcome: string;
      started_at: Date;
    }[];

  it('visits the order hours in order, each CLEAN, then re-verifies the one verified longest ago', async () => {
    app = await startTidemark({ ...env.settings, roles: ['reconciler'] }, { migrate: false });
    await waitFor(async () => (await rotationRuns()).length >= 6, { timeoutMs: 60000, intervalMs: 200, what: 'two rounds over the hours' });
    await app.stop();
    app = undefined;

    const runs = await rotationRuns();
    expect(runs.map((r) => r.outcome)).toEqual(runs.map(() => 'CLEAN'));
    // The never verified hour first, then the one verified longest ago: 11:00, 09:00, 08:00, and again in
    // the order this rotation verified them (not the keys' order).
    const order = [keys[2], keys[1], keys[0]];
    expect(runs.slice(0, 6).map((r) => r.scope_key)).toEqual([...order, ...order]);
    // Each hour is taken again only after it is due (half the period after its last verification).
    for (let i = 3; i < 6; i++)
      expect(new Date(runs[i]!.started_at).getTime() - new Date(runs[i - 3]!.started_at).getTime()).toBeGreaterThanOrEqual(2000);

    const registry = (await env.resources
      .pg('reconciliation_scopes')
      .where('scope_key', 'like', 'orders:%')
      .orderBy('scope_key')
      .select('scope_key', 'aggregates', 'last_verified_at')) as { scope_key: string; aggregates: number; last_verified_at: Date | null }[];
    expect(registry.map((r) => [r.scope_key, Number(r.aggregates)])).toEqual([
      [keys[0], 2],
      [keys[1], 3],
      [keys[2], 2],
    ]);
    // Every hour's verification is recorded: the last CLEAN run of each scope.
    for (const r of registry) {
      const last = runs.filter((x) => x.scope_key === r.scope_key).at(-1)!;
      expect(new Date(r.last_verified_at!).getTime()).toBeGreaterThanOrEqual(new Date(last.started_at).getTime());
    }
  });
});
