// The fields of event schema version 2 end to end on the real stack: events built by the producers'
// own builders in version 1 and version 2 go through Kafka and the projector into ClickHouse, and the
// read queries return them: values from a v2 event, null (the columns' '' / 0) from a v1 event, which
// the decoder receives upcast with nulls. changedBy is shown to operators and services only. The orders
// report groups by CHANNEL (v1 orders: UNKNOWN).
import { startTidemark, type Tidemark } from '../../src/app/start';
import { fitnessEvent } from '../../src/domains/fitness/events';
import type { FitnessResultState } from '../../src/domains/fitness/types';
import { orderPlacedEvent } from '../../src/domains/orders/events';
import type { Order } from '../../src/domains/orders/order';
import { fromKafkaProducer } from '../../src/infra/kafka/producer';
import type { DomainEvent } from '../../src/publication/event';
import { waitFor } from '../../src/shared/lifecycle';
import { executeRaw } from '../support/graphqlClient';
import { produceEvents } from '../support/projectionEvents';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, authHeaderFor } from '../support/tokens';

jest.setTimeout(120000);

const createdAt = new Date('2026-03-01T08:00:00.000Z');
const measuredAt = new Date('2026-02-27T09:15:00.250Z');

function result(dataId: number, over: Partial<FitnessResultState> = {}): FitnessResultState {
  return {
    dataId,
    detectId: 20033,
    userId: 7,
    projectId: 3,
    schoolId: 77,
    grade: 5,
    result: '2.210',
    unit: 'm',
    version: 1,
    isDeleted: false,
    createdAt,
    updatedAt: createdAt,
    shard: dataId % 100,
    changedBy: 'teacher-77',
    measuredAt,
    ...over,
  };
}

function order(orderId: string, channel: string | null): Order {
  return {
    orderId,
    customerId: 'cust-v2',
    currency: 'EUR',
    items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9000' }],
    total: '39.8000',
    itemCount: 2,
    createdAt,
    changedBy: 'cust-v2',
    channel,
  };
}

describe('event schema version 2 fields: projected and exposed', () => {
  let env: TestEnv;
  let tidemark: Tidemark;
  let url: string;
  const ids = { v1: 330100, v2: 330200 };
  const orders = { v1: '00000000-0000-4000-8000-000000003301', v2: '00000000-0000-4000-8000-000000003302' };

  beforeAll(async () => {
    env = await createTestEnv({ projectorFlushIntervalMs: 20, freshnessCacheMs: 0 });
    tidemark = await startTidemark({ ...env.settings, roles: ['gateway', 'projector'] }, { migrate: false });
    url = tidemark.gateway!.url;
    const producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
    try {
      const fitness: DomainEvent[] = [
        fitnessEvent('FitnessResultRecorded', result(ids.v1), 1),
        fitnessEvent('FitnessResultRecorded', result(ids.v2), 2),
      ];
      await produceEvents(producer, env.resources.topics.events.fitness, fitness);
      await produceEvents(producer, env.resources.topics.events.orders, [
        orderPlacedEvent(order(orders.v1, 'web'), 1),
        orderPlacedEvent(order(orders.v2, 'mobile'), 2),
      ]);
    } finally {
      await producer.disconnect();
    }
  });
  afterAll(async () => {
    await tidemark?.stop();
    await env?.cleanup();
  });

  const fitnessDoc = (id: number) => `{ fitnessResult(dataId: "${id}") { result { dataId result measuredAt changedBy } } }`;
  const orderDoc = (id: string) => `{ order(orderId: "${id}") { order { orderId total channel changedBy } } }`;

  async function projected(doc: string, headers: Record<string, string>, pick: (d: Record<string, unknown>) => unknown) {
    return waitFor(
      async () => {
        const r = await executeRaw(url, doc, undefined, headers);
        expect(r.errors).toBeUndefined();
        return pick(r.data!) ?? undefined;
      },
      { timeoutMs: 60000, what: 'the events projected' },
    );
  }
  const fitnessOf = (d: Record<string, unknown>) => (d.fitnessResult as { result: Record<string, unknown> | null }).result;
  const orderOf = (d: Record<string, unknown>) => (d.order as { order: Record<string, unknown> | null }).order;

  it('maps a v2 fitness event to its values and a v1 event to nulls; changedBy for operators and services only', async () => {
    const operator = await authHeader(env.settings, 'operator');
    const service = await authHeader(env.settings, 'service');
    const teacher = await authHeaderFor(env.settings, { subject: 'teacher-77', roles: ['teacher'], schoolIds: [77] });
    expect(await projected(fitnessDoc(ids.v2), operator, fitnessOf)).toEqual({
      dataId: String(ids.v2),
      result: '2.210',
      measuredAt: measuredAt.toISOString(),
      changedBy: 'teacher-77',
    });
    expect(await projected(fitnessDoc(ids.v2), service, fitnessOf)).toMatchObject({ changedBy: 'teacher-77' });
    // The teacher who wrote it sees when, not who: subjects are an operator's and a service's business.
    expect(await projected(fitnessDoc(ids.v2), teacher, fitnessOf)).toMatchObject({
      measuredAt: measuredAt.toISOString(),
      changedBy: null,
    });
    expect(await projected(fitnessDoc(ids.v1), operator, fitnessOf)).toEqual({
      dataId: String(ids.v1),
      result: '2.210',
      measuredAt: null,
      changedBy: null,
    });
  });

  it('maps a v2 order event to its channel and placer, a v1 event to nulls, and reports by channel', async () => {
    const operator = await authHeader(env.settings, 'operator');
    const customer = await authHeaderFor(env.settings, { subject: 'cust-v2', roles: ['customer'], customerId: 'cust-v2' });
    expect(await projected(orderDoc(orders.v2), operator, orderOf)).toEqual({
      orderId: orders.v2,
      total: '39.8000',
      channel: 'MOBILE',
      changedBy: 'cust-v2',
    });
    expect(await projected(orderDoc(orders.v2), customer, orderOf)).toMatchObject({ channel: 'MOBILE', changedBy: null });
    // The v1 event never said which channel, even though the order had one: unknown, not invented.
    expect(await projected(orderDoc(orders.v1), operator, orderOf)).toEqual({
      orderId: orders.v1,
      total: '39.8000',
      channel: null,
      changedBy: null,
    });
    const report = await executeRaw(
      url,
      `{ orderReport(from: "2026-03-01T00:00:00Z", to: "2026-03-02T00:00:00Z", groupBy: CHANNEL) { groups { key currency orderCount total } } }`,
      undefined,
      operator,
    );
    expect(report.errors).toBeUndefined();
    expect((report.data!.orderReport as { groups: unknown[] }).groups).toEqual([
      { key: 'MOBILE', currency: 'EUR', orderCount: 1, total: '39.8000' },
      { key: 'UNKNOWN', currency: 'EUR', orderCount: 1, total: '39.8000' },
    ]);
  });
});
