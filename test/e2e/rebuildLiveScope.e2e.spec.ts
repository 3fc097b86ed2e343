// A controlled rebuild of a scope while it is being edited (issue 37): a campaign of 1,000 results is
// rebuilt (rebuildProjection, followed through projectionRebuilds) while 20 writes a second go into it
// through the real pipeline, half corrections of its results and half new results, from before the
// rebuild until a few seconds after it ended. The rebuild ends VERIFIED; every write acknowledged
// before, during and after it reads back at its latest acknowledged version and value, FRESH, through
// a lookup with its consistency token (support/readBackWrites.ts); the campaign's list holds every
// result; reconcile(CONTENT) is CLEAN with nothing excluded; no shadow or retired table is left. The
// same for an order window on PostgreSQL while orders are placed into it (orders never change once
// placed). Runs on the 18.16 server (npm test), embedded 26.7 (test:engines) and the 3-server cluster
// (test:cluster), the last two with a lighter load.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { ident } from '../../src/infra/clickhouse/literal';
import { waitFor } from '../../src/shared/lifecycle';
import { ReconcileDocument, type ReconciliationScopeInput } from '../generated/graphql';
import { seedCampaign, startCampaignEdits } from '../support/campaignEdits';
import { readCampaign } from '../support/campaignResults';
import { execute } from '../support/graphqlClient';
import { describeRebuild, rebuildTablesLeft, rebuildUntilDone } from '../support/liveRebuild';
import { seedOrders, startOrderArrivals } from '../support/orderArrivals';
import { orderReadsBack, readBack, resultReadsBack, type ReadBackCheck } from '../support/readBackWrites';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(300000);
const embedded = process.env.CLICKHOUSE_ENGINE === 'embedded';
const cluster = !embedded && Boolean(process.env.CLICKHOUSE_CLUSTER);
const WHERE = embedded ? 'embedded' : cluster ? 'cluster' : 'server';
// The embedded engine (every role and ClickHouse in one process) and the cluster (three servers and
// ZooKeeper on the same cores) get a lighter load, as in freshnessNeverLies.
const light = embedded || cluster;
const WRITES_PER_S = light ? 8 : 20;
const CONCURRENCY = light ? 4 : 12;
const SEEDED = 1000;
const CAMPAIGN = { detectId: 44001, projectId: 3 };

describe('a projection scope rebuilt while it is being edited', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let client: Record<string, string>;
  let operator: Record<string, string>;
  const loads: { stop(): Promise<unknown> }[] = [];

  beforeAll(async () => {
    // Bucketed comparison (more than 256 records), short graces, and a rebuildProjection that answers
    // after 1 s: the test follows the rebuild through projectionRebuilds, as an operator would. The
    // load is paid at 250 rows/s, so the rebuild takes seconds and many writes land during it (the
    // catch-up pays the same rate: the scope's 20 writes/s are well within it).
    env = await createTestEnv({
      reconcileGraceMs: 5000,
      reconcileDirectCompareMax: 256,
      reconcileBucketCount: 64,
      publicationReconcilerGraceMs: 2000,
      publicationReconcilerIntervalMs: 500,
      rebuildWaitMs: 1000,
      rebuildRowsPerSecond: 250,
    });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
    url = app.gateway!.url;
    client = await authHeader(env.settings, 'service');
    operator = await authHeader(env.settings, 'operator');
  });
  afterAll(async () => {
    for (const l of loads) await l.stop();
    await app?.stop();
    await env?.cleanup();
  });

  const projected = async (table: string, column: string) => {
    const rs = await app.resources.clickhouse.query({
      query: `SELECT uniqExact(${ident(column)}) AS n FROM ${ident(env.settings.clickhouseDatabase)}.${ident(table)}`,
      format: 'JSONEachRow',
    });
    return Number((await rs.json<{ n: string }>())[0]!.n);
  };

  /**
   * With the load running: rebuild the scope and follow it to its end, let the load go on a few seconds
   * more, stop it, then read every acknowledged write back, reconcile the scope and list the tables left.
   */
  async function rebuildWhileEdited<T>(o: {
    domain: 'fitness' | 'orders';
    scope: ReconciliationScopeInput;
    load: { ok(): number; stop(): Promise<T> };
    keys(): string[];
    check: ReadBackCheck;
  }) {
    loads.push(o.load);
    await waitFor(() => o.load.ok() >= WRITES_PER_S * 2, { timeoutMs: 30000, what: 'writes flowing' });
    const before = o.load.ok();
    const reason = 'e2e: rebuild a live scope';
    const { rebuild, ms } = await rebuildUntilDone({ url, operator, domain: o.domain, scope: o.scope, reason, timeoutMs: 180000 });
    const ended = o.load.ok();
    process.stderr.write(`[rebuild-live] ${o.domain} on ${WHERE}: ${describeRebuild(rebuild)}\n`);
    await waitFor(() => o.load.ok() >= ended + WRITES_PER_S * 3, { timeoutMs: 30000, what: 'writes after the rebuild' });
    const done = await o.load.stop();
    const writes = { before, during: ended - before, after: o.load.ok() - ended };
    const back = await readBack(o.keys(), o.check, { concurrency: CONCURRENCY, timeoutMs: 90000 });
    const r = await execute(url, ReconcileDocument, { scope: o.scope, level: 'CONTENT' }, operator);
    expect(r.errors).toBeUndefined();
    const { run, discrepancies } = r.data!.reconcile;
    const reconciled = {
      outcome: run.outcome,
      discrepancies: discrepancies.slice(0, 5).map((d) => `${d.aggregateId} ${d.kind}`),
      excluded: run.excludedChangedAfterSnapshot + run.excludedInFlight,
    };
    const tablesLeft = await rebuildTablesLeft(env.settings, app.resources.clickhouse);
    const n = o.keys().length;
    const line =
      `${SEEDED} seeded, rebuild ${rebuild.status} in ${ms} ms; writes acknowledged before/during/after it ` +
      `${writes.before}/${writes.during}/${writes.after} at ${WRITES_PER_S}/s ${JSON.stringify(done)}; ` +
      `${n - back.left.length}/${n} read back FRESH in ${back.passes} pass(es), ${back.ms} ms; reconcile ${run.outcome} ` +
      `(${run.excludedChangedAfterSnapshot} changed after the snapshot, ${run.excludedInFlight} in flight excluded)`;
    process.stderr.write(`[rebuild-live] ${o.domain} on ${WHERE}: ${line}\n`);
    // Compared as one object, so a failure shows every property of the run at once.
    const verdict = {
      rebuild: { status: rebuild.status, phase: rebuild.phase, errorCode: rebuild.errorCode, errorSummary: rebuild.errorSummary },
      loadedTheSeed: rebuild.sourceRows >= SEEDED,
      writtenDuringRebuild: writes.during > 0,
      notReadBack: back.left.slice(0, 5),
      reconciled,
      tablesLeft,
    };
    const expected = {
      rebuild: { status: 'VERIFIED', phase: 'DONE', errorCode: null, errorSummary: null },
      loadedTheSeed: true,
      writtenDuringRebuild: true,
      notReadBack: [],
      reconciled: { outcome: 'CLEAN', discrepancies: [], excluded: 0 },
      tablesLeft: [],
    };
    return { verdict, expected, done };
  }

  it('rebuilds a campaign of 1,000 results VERIFIED while corrections and new results go in; every write reads back FRESH', async () => {
    const seed = { url, headers: client, campaign: CAMPAIGN, count: SEEDED, concurrency: CONCURRENCY, userBase: 400_000 };
    const acked = await seedCampaign(seed);
    await waitFor(async () => (await projected('fitness_results', 'data_id')) === SEEDED, { timeoutMs: 60000, what: 'the seed projected' });
    const load = startCampaignEdits({ url, headers: client, campaign: CAMPAIGN, acked, perSecond: WRITES_PER_S, userBase: 600_000 });
    const { verdict, expected, done } = await rebuildWhileEdited({
      domain: 'fitness',
      scope: { campaign: CAMPAIGN },
      load,
      keys: () => [...acked.keys()],
      check: resultReadsBack(url, client, acked, load.uncertain),
    });
    const list = await readCampaign(url, CAMPAIGN.detectId, client);
    expect({
      ...verdict,
      loadFailures: done.failed <= (done.corrections + done.created) / 100 ? [] : load.failures(),
      notListed: [...acked.keys()].filter((id) => !list.ids.has(id)).slice(0, 5),
      listStatuses: [...new Set(list.statuses)],
    }).toEqual({ ...expected, loadFailures: [], notListed: [], listStatuses: ['FRESH'] });
  });

  it('rebuilds an order window of 1,000 orders VERIFIED while orders are placed into it; every order reads back FRESH', async () => {
    const window = { from: new Date(Date.now() - 60_000).toISOString(), to: new Date(Date.now() + 3600_000).toISOString() };
    const customerId = 'c-rebuild-live';
    const placed = await seedOrders({ url, headers: client, customerId, count: SEEDED, concurrency: CONCURRENCY });
    await waitFor(async () => (await projected('orders', 'order_id')) === SEEDED, { timeoutMs: 60000, what: 'the orders projected' });
    const load = startOrderArrivals({ url, headers: client, customerId, placed, perSecond: WRITES_PER_S });
    const { verdict, expected, done } = await rebuildWhileEdited({
      domain: 'orders',
      scope: { orderWindow: window },
      load,
      keys: () => [...placed.keys()],
      check: orderReadsBack(url, client, placed),
    });
    expect({ ...verdict, loadFailures: done.failed <= done.ok / 100 ? [] : load.failures() }).toEqual({ ...expected, loadFailures: [] });
  });
});
