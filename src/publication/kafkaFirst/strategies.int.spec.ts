// One Publisher interface, two strategies, both engines: orders (PostgreSQL) under the outbox
// strategy, and fitness (a MySQL/MariaDB shard) under kafka-first, each through its real domain
// service. (Orders under kafka-first: src/domains/orders/placeOrder.int.spec.ts; fitness under the
// outbox: the fitness suites.)
import { fitnessService } from '../../domains/fitness/service';
import { createOrdersService } from '../../domains/orders/ordersService';
import { orderPlacedEvent } from '../../domains/orders/events';
import { fromKafkaProducer } from '../../infra/kafka/producer';
import { createRegistry } from '../../metrics/registry';
import { exponentialBackoff } from '../../relay/backoff';
import { relayOnce } from '../../relay/kafkaFirst/kafkaFirstRelay';
import { randomIds, systemClock } from '../../shared/clock';
import { silentLogger } from '../../shared/logger';
import { outboxPublisher } from '../outbox/outboxPublisher';
import { topicByDomain } from '../outbox/outboxRow';
import { toKafkaRecord } from '../event';
import { kafkaFirstMetrics } from './metrics';
import { readPublicationStates } from './readPublicationStates';
import { fromProducerFactory } from './recordSender';
import { CLOSED_PORT_BROKER, readTopic } from '../../../test/support/kafkaProbe';
import { testKafkaFirstPublisher, type TestPublisher } from '../../../test/support/kafkaFirst';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';

let env: TestEnv;
const closers: TestPublisher[] = [];
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await Promise.all(closers.map((c) => c.close()));
  await env?.cleanup();
});

const count = async (db: TestEnv['resources']['pg'], table: string) => Number((await db(table).count({ n: '*' }))[0]!.n);

it('orders under the outbox strategy: the order and its outbox row commit together, no event_publications row', async () => {
  const orders = createOrdersService({
    db: env.resources.pg,
    publisher: outboxPublisher({ topicOf: topicByDomain(env.resources.topics) }),
    clock: systemClock,
    ids: randomIds,
    limits: { maxItems: 10 },
  });
  const r = await orders.placeOrder({ customerId: 'c', currency: 'USD', idempotencyKey: 'outbox-1', items: [{ sku: 'X', quantity: 3, unitPrice: '2.5' }] });
  expect(r).toMatchObject({ outcome: 'OUTBOX_STORED', publication: { eventId: r.eventId, state: 'NEW' } });
  const row = await env.resources.pg('outbox_events').where({ event_id: r.eventId }).first();
  expect(row).toMatchObject({ status: 'NEW', domain: 'orders', aggregate_id: r.order.orderId, message_key: r.order.orderId, topic: env.resources.topics.orders });
  expect(row.message_value).toBe(toKafkaRecord(orderPlacedEvent(r.order)).value);
  expect(await count(env.resources.pg, 'event_publications')).toBe(0);
});

describe('fitness under the kafka-first strategy (MySQL shard)', () => {
  const record = (userId: number, key: string) => ({ detectId: 10001, userId, projectId: 3, schoolId: 7, grade: 5, result: '2.21', unit: 'm', idempotencyKey: key });

  it('publishes directly with no outbox or publication row on the shard', async () => {
    const pub = testKafkaFirstPublisher({ brokers: env.settings.kafkaBrokers, topics: env.resources.topics });
    closers.push(pub);
    const fitness = fitnessService({ shards: env.resources.mysql, publisher: pub.publisher, publicationStates: readPublicationStates });
    const w = await fitness.record(record(4, 'kf-direct'));
    expect(w.publication.state).toBe('PUBLISHED_DIRECT');
    const shard = env.resources.mysql.shard(w.result.shard).db;
    expect(await count(shard, 'outbox_events')).toBe(0);
    expect(await count(shard, 'event_publications')).toBe(0);
    const again = await fitness.record(record(4, 'kf-direct'));
    expect(again).toMatchObject({ replayed: true, publication: { state: 'PUBLISHED_DIRECT' } });
  });

  it('stores the fallback row on the shard when Kafka refuses, and the relay publishes it from MySQL', async () => {
    const pub = testKafkaFirstPublisher({ brokers: [CLOSED_PORT_BROKER], topics: env.resources.topics });
    closers.push(pub);
    const fitness = fitnessService({ shards: env.resources.mysql, publisher: pub.publisher, publicationStates: readPublicationStates });
    const w = await fitness.record(record(5, 'kf-fallback'));
    expect(w.publication).toEqual({ eventId: `fitness-result-${w.result.dataId}-v1`, state: 'NOT_PUBLISHED' });
    const shardIndex = w.result.shard;
    const db = env.resources.mysql.shard(shardIndex).db;
    expect(await db('event_publications').where({ event_id: w.publication.eventId }).first()).toMatchObject({ status: 'NOT_PUBLISHED', domain: 'fitness', direct_attempts: 3 });

    const sender = fromProducerFactory(() => fromKafkaProducer(env.resources.kafka), { resetAfterFailure: false });
    try {
      const store = { name: `mysql-shard-${shardIndex}`, db, domains: ['fitness'] as const };
      const r = await relayOnce(store, {
        sender, policy: exponentialBackoff({ baseMs: 10, maxMs: 20, maxAttempts: 3 }), instanceId: 'strategies', ids: randomIds, clock: systemClock,
        leaseMs: 30000, publishTimeoutMs: 5000, batchSize: 10, pollIntervalMs: 10, statsIntervalMs: 1000, metrics: kafkaFirstMetrics(createRegistry(false)), logger: silentLogger,
      });
      expect(r).toMatchObject({ claimed: 1, published: 1 });
    } finally {
      await sender.close();
    }
    const msgs = await readTopic(env.resources.kafka, env.resources.topics.fitnessResults, (m) => m.some((x) => x.headers?.eventId?.toString() === w.publication.eventId));
    const got = msgs.find((x) => x.headers?.eventId?.toString() === w.publication.eventId)!;
    expect(got.key!.toString()).toBe(String(w.result.dataId));
    expect(JSON.parse(got.value!.toString())).toMatchObject({ type: 'FitnessResultRecorded', version: 1, data: { result: '2.210', userId: 5 } });
  });
});
