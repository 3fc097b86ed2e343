// Reconciliation of an order window (PostgreSQL) while orders keep arriving in it (issue 37): orders
// are placed into the window at about 10 per second through the gateway (kafka-first publication,
// Kafka, projector) for the whole suite. Each run reads the window in one REPEATABLE READ snapshot, so
// orders placed meanwhile neither fail nor stall it: each run answers CLEAN and counts them (created
// after its snapshot and already projected, or in the snapshot and still on their way). An order
// removed from the projection is found alone among the arrivals, replayed, and the next run is CLEAN.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { clickhouseLayout } from '../../src/infra/clickhouse/layout';
import { ident, str } from '../../src/infra/clickhouse/literal';
import { deleteRows } from '../../src/reconciliation/target/sql/deleteRows';
import { sleep, waitFor } from '../../src/shared/lifecycle';
import { PlaceOrderDocument, ReconcileDocument, RepairDocument, type ReconcileMutation } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(180000);

describe('reconciliation of an order window while orders arrive in it', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let client: Record<string, string>;
  let operator: Record<string, string>;
  let timer: NodeJS.Timeout | undefined;
  const inFlight = new Set<Promise<void>>();
  const placed = { ok: 0, failed: 0 };
  const early: string[] = [];
  const runs: { outcome: string | null | undefined; changed: number; inFlight: number; ms: number }[] = [];
  const window = { orderWindow: { from: new Date(Date.now() - 60_000).toISOString(), to: new Date(Date.now() + 3600_000).toISOString() } };

  const place = async (key: string): Promise<string | undefined> => {
    const input = { customerId: 'c-live', currency: 'EUR', idempotencyKey: key, items: [{ sku: 'SKU-L', quantity: 1, unitPrice: '9.5' }] };
    const r = await execute(url, PlaceOrderDocument, { input }, client);
    if (r.errors || !r.data) return void placed.failed++;
    placed.ok++;
    return r.data.placeOrder.order.orderId;
  };
  const projected = async () => {
    const rs = await app.resources.clickhouse.query({
      query: `SELECT uniqExact(order_id) AS n FROM ${ident(env.settings.clickhouseDatabase)}.orders`,
      format: 'JSONEachRow',
    });
    return Number((await rs.json<{ n: string }>())[0]!.n);
  };
  const reconcile = async (): Promise<ReconcileMutation['reconcile']> => {
    const t0 = Date.now();
    const r = await execute(url, ReconcileDocument, { scope: window, level: 'CONTENT' }, operator);
    expect(r.errors).toBeUndefined();
    const run = r.data!.reconcile.run;
    runs.push({ outcome: run.outcome, changed: run.excludedChangedAfterSnapshot, inFlight: run.excludedInFlight, ms: Date.now() - t0 });
    return r.data!.reconcile;
  };

  beforeAll(async () => {
    // Orders' grace adds the publication reconciler's grace and interval: kept short so that the
    // first orders are old enough to be judged while the later ones arrive.
    env = await createTestEnv({
      reconcileGraceMs: 2000,
      publicationReconcilerGraceMs: 2000,
      publicationReconcilerIntervalMs: 500,
      reconcileDirectCompareMax: 16,
      reconcileBucketCount: 16,
      repairWaitMs: 30000,
    });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
    url = app.gateway!.url;
    client = await authHeader(env.settings, 'service');
    operator = await authHeader(env.settings, 'operator');
    for (let i = 0; i < 6; i++) early.push((await place(`live-early-${i}`))!);
    await waitFor(async () => (await projected()) === 6, { timeoutMs: 30000, what: 'the first orders projected' });
    let n = 0;
    const started = Date.now();
    timer = setInterval(() => {
      while (n < Math.floor(((Date.now() - started) / 1000) * 10)) {
        const p = place(`live-${n++}`).then(() => undefined);
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      }
    }, 20);
    // Orders are arriving, and the first ones are older than the orders' grace (4.5 s).
    await waitFor(async () => placed.ok >= 6 + 50, { timeoutMs: 30000, what: 'orders arriving' });
  });
  afterAll(async () => {
    clearInterval(timer);
    await Promise.allSettled([...inFlight]);
    await app?.stop();
    await env?.cleanup();
    writeFileSync(join(tmpdir(), 'tidemark-reconciliation-live-orders.json'), JSON.stringify({ placed, runs }, null, 1));
    expect(placed.failed).toBeLessThanOrEqual(placed.ok / 100);
  });

  it('answers CLEAN on each of 5 runs while orders arrive, counting the orders it excluded', async () => {
    let excluded = 0;
    const before = placed.ok;
    for (let i = 0; i < 5; i++) {
      const { run, discrepancies } = await reconcile();
      expect({ outcome: run.outcome, discrepancies }).toEqual({ outcome: 'CLEAN', discrepancies: [] });
      excluded += run.excludedChangedAfterSnapshot + run.excludedInFlight;
      await sleep(300);
    }
    expect(placed.ok - before).toBeGreaterThan(10);
    expect(excluded).toBeGreaterThan(0);
  });

  it('finds exactly an order missing from the projection among the arrivals, repairs it, and is CLEAN again', async () => {
    const missing = early[2]!;
    const l = clickhouseLayout(env.settings);
    await deleteRows(app.resources.clickhouse, l, env.settings.clickhouseDatabase, 'orders', `order_id = ${str(missing)}`);
    const found = await reconcile();
    expect(found.discrepancies.map((d) => [d.aggregateId, d.kind])).toEqual([[missing, 'MISSING']]);
    const repaired = await execute(url, RepairDocument, { ids: found.discrepancies.map((d) => d.id) }, operator);
    expect(repaired.errors).toBeUndefined();
    expect(repaired.data!.repair).toEqual([expect.objectContaining({ aggregateId: missing, action: 'REPLAY', verification: 'PASSED' })]);
    const again = await reconcile();
    expect({ outcome: again.run.outcome, discrepancies: again.discrepancies }).toEqual({ outcome: 'CLEAN', discrepancies: [] });
  });
});
