// A failure stays where it happens (issue 30): a gateway whose ClickHouse does not answer stays ready
// (200 `degraded`, naming it), because writes do not need it: fitness results and orders are written
// and acknowledged, while reads answer the typed, retriable READ_MODEL_UNAVAILABLE. Only a gateway that
// can serve nothing (no shard, no PostgreSQL, no ClickHouse) is not ready. One shard server down:
// test/e2e/shardDown.e2e.spec.ts. Under a real outage, with traffic: test/faults (ClickHouse stops).
import { startTidemark, type Tidemark } from '../../src/app/start';
import { formatShardUrl } from '../../src/config/shardUrls';
import { executeRaw } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

const RECORD = `mutation($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input) { result { dataId version } } }`;
const PLACE = `mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { outcome order { orderId } } }`;
const READ = `query($id: ID!) { fitnessResult(dataId: $id) { result { version } } }`;
// A ClickHouse server that does not answer (also under test:engines, where the suite's own is embedded).
const NO_CLICKHOUSE = { clickhouseEngine: 'server' as const, clickhouseUrl: 'http://127.0.0.1:1' };

describe('a gateway whose read store is down', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let service: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv();
    service = await authHeader(env.settings, 'service');
    app = await startTidemark({ ...env.settings, roles: ['gateway'], ...NO_CLICKHOUSE }, { migrate: false });
    url = app.gateway!.url;
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const readyz = async (t: Tidemark) => {
    const res = await fetch(`${t.gateway!.url.replace(/\/graphql$/, '')}/readyz`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('stays ready, degraded, naming ClickHouse: a load balancer keeps sending it writes', async () => {
    expect(await readyz(app)).toMatchObject({
      status: 200,
      body: { status: 'degraded', ready: true, failing: [], degraded: ['clickhouse'], shardsDown: [] },
    });
  });

  it('acknowledges writes of both domains, and answers reads with a typed retriable READ_MODEL_UNAVAILABLE', async () => {
    const input = { detectId: 30501, userId: 305001, projectId: 3, schoolId: 5, grade: 5, result: '2.21', unit: 'm' };
    const rec = await executeRaw(url, RECORD, { input }, service);
    expect(rec.errors).toBeUndefined();
    const dataId = (rec.data!.recordFitnessResult as { result: { dataId: string } }).result.dataId;
    const order = {
      customerId: 'cust-degraded',
      currency: 'EUR',
      idempotencyKey: 'degraded-1',
      items: [{ sku: 'S', quantity: 1, unitPrice: '1.5' }],
    };
    const placed = await executeRaw(url, PLACE, { input: order }, service);
    expect(placed.errors).toBeUndefined();

    const read = await executeRaw(url, READ, { id: dataId }, service);
    expect(read.errors?.[0]?.extensions).toMatchObject({ code: 'READ_MODEL_UNAVAILABLE', retriable: true });
    expect(read.errors?.[0]?.message).toBe('the read model is unavailable; retry later (writes are not affected)');
  });

  it('is not ready only when it can serve nothing: no shard, no PostgreSQL and no ClickHouse', async () => {
    const nothing = await startTidemark(
      {
        ...env.settings,
        roles: ['gateway'],
        ...NO_CLICKHOUSE,
        pgPort: 1,
        fitnessShards: env.settings.fitnessShardDatabases.map((database) => formatShardUrl({ host: '127.0.0.1', port: 1, database })),
      },
      { migrate: false },
    );
    try {
      expect(await readyz(nothing)).toMatchObject({
        status: 503,
        body: { status: 'not-ready', failing: ['mysql', 'postgres', 'clickhouse'], shardsDown: [0, 1] },
      });
    } finally {
      await nothing.stop();
    }
  });
});
