// Read models over GraphQL on the real stack, end to end through the real write paths: mutations ->
// outbox / kafka-first -> relay -> Kafka -> projector -> ClickHouse -> queries with freshness markers.
// Roles run as separate Tidemark instances on the same stores so each stage can be held back:
//   gateway (queries, fitness mutations), relay, projector, and a gateway whose Kafka is down.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { fromKafkaProducer } from '../../src/infra/kafka/producer';
import { waitFor } from '../../src/shared/lifecycle';
import {
  CorrectFitnessResultDocument,
  DeleteFitnessResultDocument,
  FitnessReportByDocument,
  FitnessResultByIdDocument,
  FitnessResultsPageDocument,
  FitnessResultsWithStudentsDocument,
  OrderByIdDocument,
  OrderReportByDocument,
  OrdersPageDocument,
  PlaceOrderDocument,
  RecordFitnessResultDocument,
  type FitnessResultByIdQuery,
} from '../generated/graphql';
import { execute, executeRaw } from '../support/graphqlClient';
import { CLOSED_PORT_BROKER } from '../support/kafkaProbe';
import { fitnessEvent, produceEvents } from '../support/projectionEvents';
import { readTopic } from '../support/readTopic';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, authHeaderFor } from '../support/tokens';

jest.setTimeout(120000);

describe('read models and freshness over GraphQL', () => {
  let env: TestEnv;
  let gateway: Tidemark;
  let relay: Tidemark | undefined;
  let projector: Tidemark | undefined;
  let url: string;
  let client: Record<string, string>;
  let reporter: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv({
      relayPollIntervalMs: 50,
      kafkaFirstRelayPollIntervalMs: 100,
      projectorFlushIntervalMs: 20,
      freshnessCacheMs: 0,
    });
    gateway = await startTidemark({ ...env.settings, roles: ['gateway'] }, { migrate: false });
    url = gateway.gateway!.url;
    client = await authHeader(env.settings, 'service');
    // Reports as an operator: every group shown (these groups hold one student or customer, which an
    // analyst's report would suppress; suppression: src/projections/read/readScope.int.spec.ts).
    reporter = await authHeader(env.settings, 'operator');
  });
  afterAll(async () => {
    await projector?.stop();
    await relay?.stop();
    await gateway?.stop();
    await env?.cleanup();
  });

  const startRelay = async () => (relay = await startTidemark({ ...env.settings, roles: ['relay'] }, { migrate: false }));
  const stopRelay = async () => {
    await relay?.stop();
    relay = undefined;
  };
  const jump = { detectId: 10001, userId: 4, projectId: 3, schoolId: 77, grade: 5, unit: 'm' };
  let dataId = '';

  async function lookup(id: string): Promise<FitnessResultByIdQuery['fitnessResult']> {
    const r = await execute(url, FitnessResultByIdDocument, { dataId: id }, client);
    expect(r.errors).toBeUndefined();
    return r.data!.fitnessResult;
  }
  const report = async () => {
    const r = await execute(
      url,
      FitnessReportByDocument,
      { detectId: jump.detectId, projectId: jump.projectId, groupBy: 'SCHOOL' },
      reporter,
    );
    expect(r.errors).toBeUndefined();
    return r.data!.fitnessReport;
  };
  const fresh = <T extends { freshness: { status: string } }>(what: string, check: () => Promise<false | T | null | undefined>) =>
    waitFor<T>(
      async () => {
        const x = await check();
        return x && x.freshness.status === 'FRESH' && x;
      },
      { timeoutMs: 60000, intervalMs: 100, what },
    );

  it('teacher story: 2.21 corrected to 2.31 is CATCHING_UP until projected, then FRESH with 2.31 in lookups and reports', async () => {
    const rec = await execute(url, RecordFitnessResultDocument, { input: { ...jump, result: '2.21' } }, client);
    expect(rec.errors).toBeUndefined();
    dataId = rec.data!.recordFitnessResult.result.dataId;
    const cor = await execute(url, CorrectFitnessResultDocument, { dataId, expectedVersion: 1, result: '2.31', unit: 'm' }, client);
    expect(cor.errors).toBeUndefined();

    // Nothing relayed yet: both versions are pending in the shard's outbox.
    const pending = await lookup(dataId);
    expect(pending).toMatchObject({
      dataId,
      result: null,
      freshness: { status: 'CATCHING_UP', reason: 'PENDING_PUBLICATIONS', pendingPublications: 2 },
    });
    expect((await report()).freshness).toMatchObject({ status: 'CATCHING_UP', pendingPublications: 2 });

    // Relayed but not projected: the projector is behind the topic.
    await startRelay();
    const lagging = await waitFor(
      async () => {
        const x = await lookup(dataId);
        return x.freshness.reason === 'CONSUMER_LAG' && x;
      },
      { timeoutMs: 30000, what: 'relay published both versions' },
    );
    expect(lagging).toMatchObject({ result: null, freshness: { status: 'CATCHING_UP', pendingPublications: 0, lagMessages: 2 } });

    projector = await startTidemark({ ...env.settings, roles: ['projector'] }, { migrate: false });
    const done = await fresh('the correction projected', async () => (await lookup(dataId)).result && lookup(dataId));
    expect(done).toMatchObject({
      result: { dataId, result: '2.310', version: 2, unit: 'm', detectId: 10001, userId: 4 },
      freshness: { reason: 'UP_TO_DATE', lagMs: 0, pendingPublications: 0, lagMessages: 0 },
    });
    const r = await fresh('report caught up', report);
    expect(r.groups).toEqual([
      { key: 77, unit: 'm', count: 1, min: '2.310', max: '2.310', average: '2.310', p50: '2.310', p90: '2.310', p99: '2.310' },
    ]);
  });

  it('a late version 1 and a duplicate version 2 change nothing', async () => {
    const msgs = await readTopic(
      env.resources.kafka,
      env.resources.topics.events.fitness,
      (m) => m.filter((x) => x.key === dataId).length >= 2,
    );
    const mine = msgs.filter((x) => x.key === dataId);
    const v1 = mine.find((x) => x.envelope.version === 1)!;
    const v2 = mine.find((x) => x.envelope.version === 2)!;
    const producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
    try {
      // The exact bytes again (the envelope's JSON round-trips): a duplicate of version 2, then
      // version 1 arriving after version 2.
      await producer.send({
        topic: env.resources.topics.events.fitness,
        acks: -1,
        messages: [v2, v1].map((m) => ({ key: m.key, value: JSON.stringify(m.envelope), headers: m.headers })),
      });
    } finally {
      await producer.disconnect();
    }
    const after = await fresh('re-deliveries applied', () => lookup(dataId));
    expect(after.result).toMatchObject({ result: '2.310', version: 2 });
    expect((await fresh('report after re-delivery', report)).groups).toEqual([
      expect.objectContaining({ count: 1, min: '2.310', max: '2.310' }),
    ]);
  });

  it('a deletion disappears from lookups, pages and reports', async () => {
    const del = await execute(url, DeleteFitnessResultDocument, { dataId, expectedVersion: 2 }, client);
    expect(del.errors).toBeUndefined();
    // (Relay and projector are running, so the CATCHING_UP window may already be over here; FRESH
    // below implies the tombstone was relayed and applied, because its outbox row was pending first.)
    const gone = await fresh('tombstone projected', () => lookup(dataId));
    expect(gone.result).toBeNull();
    expect((await fresh('report without the deleted result', report)).groups).toEqual([]);
    const page = await execute(url, FitnessResultsPageDocument, { filter: { detectId: jump.detectId } }, client);
    expect(page.data!.fitnessResults).toMatchObject({
      nodes: [],
      pageInfo: { hasNextPage: false, endCursor: null },
      freshness: { status: 'FRESH' },
    });
  });

  it('an order placed while Kafka is down is CATCHING_UP until the relay runs, then shows with exact money', async () => {
    await stopRelay();
    const down = await startTidemark(
      {
        ...env.settings,
        roles: ['gateway'],
        kafkaBrokers: [CLOSED_PORT_BROKER],
        kafkaFirstAttemptTimeoutMs: 200,
        kafkaFirstDeadlineMs: 800,
      },
      { migrate: false },
    );
    let orderId: string;
    try {
      const placed = await execute(
        down.gateway!.url,
        PlaceOrderDocument,
        {
          input: {
            customerId: 'cust-ro',
            currency: 'EUR',
            idempotencyKey: 'ro-1',
            items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9' }],
          },
        },
        client,
      );
      expect(placed.errors).toBeUndefined();
      expect(placed.data!.placeOrder.outcome).toBe('FALLBACK_STORED');
      orderId = placed.data!.placeOrder.order.orderId;
    } finally {
      await down.stop();
    }

    const before = await execute(url, OrderByIdDocument, { orderId }, client);
    expect(before.data!.order).toMatchObject({
      orderId,
      order: null,
      freshness: { status: 'CATCHING_UP', reason: 'PENDING_PUBLICATIONS', pendingPublications: 1 },
    });
    const window = { from: new Date(Date.now() - 3600000).toISOString(), to: new Date(Date.now() + 3600000).toISOString() };
    const rep = await execute(url, OrderReportByDocument, { ...window, groupBy: 'CURRENCY' }, reporter);
    expect(rep.data!.orderReport).toMatchObject({ groups: [], freshness: { status: 'CATCHING_UP', pendingPublications: 1 } });

    await startRelay();
    const shown = await fresh(
      'order relayed and projected',
      async () => (await execute(url, OrderByIdDocument, { orderId }, client)).data!.order,
    );
    expect(shown.order).toMatchObject({
      orderId,
      customerId: 'cust-ro',
      currency: 'EUR',
      total: '39.8000',
      itemCount: 2,
      items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9000' }],
    });
    const after = await fresh(
      'order report',
      async () => (await execute(url, OrderReportByDocument, { ...window, groupBy: 'CURRENCY' }, reporter)).data!.orderReport,
    );
    expect(after.groups).toEqual([{ key: 'EUR', currency: 'EUR', orderCount: 1, itemCount: 2, total: '39.8000', averageTotal: '39.8000' }]);
    const page = await execute(url, OrdersPageDocument, { filter: { customerId: 'cust-ro' }, first: 10 }, client);
    expect(page.data!.orders.nodes.map((n) => n.orderId)).toEqual([orderId]);
  });

  it('batches: 50 results by id are one ClickHouse query, and a page with related fields is two', async () => {
    const detectId = 55555;
    const events = Array.from({ length: 50 }, (_, i) =>
      fitnessEvent({
        dataId: 1000000 + i * 100,
        detectId,
        projectId: 3,
        schoolId: 1 + (i % 3),
        grade: 4,
        userId: 500 + (i % 10),
        result: '1.500',
        version: 1,
      }),
    );
    const producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
    try {
      await produceEvents(producer, env.resources.topics.events.fitness, events);
    } finally {
      await producer.disconnect();
    }
    await fresh('the 50 results projected', async () => {
      const p = (await execute(url, FitnessResultsPageDocument, { filter: { detectId }, first: 50 }, client)).data!.fitnessResults;
      return p.nodes.length === 50 && p;
    });

    const queries = async (name: string) =>
      (await gateway.registry.getSingleMetric('tidemark_read_model_queries_total')!.get()).values.find((v) => v.labels.query === name)
        ?.value ?? 0;
    const byIds = await queries('fitnessByIds');
    const doc = `{ ${events.map((e, i) => `r${i}: fitnessResult(dataId: "${e.aggregateId}") { result { dataId result } freshness { status } }`).join(' ')} }`;
    const many = await executeRaw(url, doc, undefined, client);
    expect(many.errors).toBeUndefined();
    expect(Object.values(many.data!).every((x) => (x as { result: { result: string } }).result.result === '1.500')).toBe(true);
    expect((await queries('fitnessByIds')) - byIds).toBe(1);

    const [page0, students0] = [await queries('fitnessPage'), await queries('fitnessByStudents')];
    const withStudents = await execute(url, FitnessResultsWithStudentsDocument, { filter: { detectId }, first: 50 }, client);
    expect(withStudents.errors).toBeUndefined();
    const nodes = withStudents.data!.fitnessResults.nodes;
    expect(nodes).toHaveLength(50);
    expect(nodes.every((n) => n.studentResults.length === 5 && n.studentResults.some((s) => s.dataId === n.dataId))).toBe(true);
    expect([(await queries('fitnessPage')) - page0, (await queries('fitnessByStudents')) - students0]).toEqual([1, 1]);
  });

  it('asks for the right role and rejects bad arguments with stable codes', async () => {
    const noAuth = await execute(url, FitnessResultByIdDocument, { dataId: '1' });
    expect(noAuth.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const student = await authHeaderFor(env.settings, { subject: 'student-4', roles: ['student'], userId: 4 });
    const studentReport = await execute(url, FitnessReportByDocument, { detectId: 1, projectId: 1, groupBy: 'GRADE' }, student);
    expect(studentReport.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    for (const [doc, vars, field] of [
      [FitnessResultByIdDocument, { dataId: "1' OR 1=1 --" }, 'dataId'],
      [FitnessResultsPageDocument, { first: 100000 }, 'first'],
      [FitnessResultsPageDocument, { after: 'not-a-cursor' }, 'after'],
      [FitnessResultsPageDocument, { filter: { detectId: -1 } }, 'detectId'],
      [OrderReportByDocument, { from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z', groupBy: 'DAY' }, 'to'],
    ] as const) {
      const r = await execute(url, doc as never, vars as never, reporter);
      expect(r.errors![0]!.extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
    }
  });
});
