// One Publisher interface, two strategies, both engines: orders (PostgreSQL) under the outbox
// strategy, and fitness (a MySQL/MariaDB shard) under kafka-first, each through its real domain
// service, including a fallback write on the shard that outlasts KAFKA_FIRST_FALLBACK_TIMEOUT_MS.
// (Orders under kafka-first: src/domains/orders/placeOrder.int.spec.ts; fitness under the outbox:
// the fitness suites.)
import { fitnessService } from '../../domains/fitness/service';
import { createOrdersService } from '../../domains/orders/ordersService';
import { orderPlacedEvent } from '../../domains/orders/events';
import { randomIds, systemClock } from '../../shared/clock';
import { outboxPublisher } from '../outbox/outboxPublisher';
import { topicByDomain } from '../outbox/outboxRow';
import { toKafkaRecord } from '../event';
import { discardStateChanges } from '../stateChanges/stateChange';
import { readPublicationStates } from './readPublicationStates';
import { CLOSED_PORT_BROKER, readTopic } from '../../../test/support/kafkaProbe';
import { metricValue, testKafkaFirstPublisher, type TestPublisher } from '../../../test/support/kafkaFirst';
import { shardKnex } from '../../infra/mysql/fromMysql';
import { waitFor } from '../../shared/lifecycle';
import { fromKafkaSink, mysqlStore, relayOnce, tableOf, testRelayDeps } from '../../../test/support/relayHarness';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { TEST_SERVICE } from '../../../test/support/principals';

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
    publisher: outboxPublisher({ topicOf: topicByDomain(env.resources.topics), stateChanges: discardStateChanges, clock: systemClock }),
    clock: systemClock,
    ids: randomIds,
    limits: { maxItems: 10 },
  });
  const r = await orders.placeOrder(
    {
      customerId: 'c',
      currency: 'USD',
      idempotencyKey: 'outbox-1',
      items: [{ sku: 'X', quantity: 3, unitPrice: '2.5' }],
    },
    TEST_SERVICE,
  );
  expect(r).toMatchObject({ outcome: 'OUTBOX_STORED', publication: { eventId: r.eventId, state: 'NEW' } });
  const row = await env.resources.pg('outbox_events').where({ event_id: r.eventId }).first();
  expect(row).toMatchObject({
    status: 'NEW',
    domain: 'orders',
    aggregate_id: r.order.orderId,
    message_key: r.order.orderId,
    topic: env.resources.topics.events.orders,
  });
  expect(row.message_value).toBe(toKafkaRecord(orderPlacedEvent(r.order, 1)).value);
  expect(await count(env.resources.pg, 'event_publications')).toBe(0);
});

describe('fitness under the kafka-first strategy (MySQL shard)', () => {
  const record = (userId: number, key: string) => ({
    detectId: 10001,
    userId,
    projectId: 3,
    schoolId: 7,
    grade: 5,
    result: '2.21',
    unit: 'm',
    idempotencyKey: key,
  });

  it('publishes directly with no outbox or publication row on the shard', async () => {
    const pub = testKafkaFirstPublisher({ brokers: env.settings.kafkaBrokers, topics: env.resources.topics });
    closers.push(pub);
    const fitness = fitnessService({ shards: env.resources.mysql, publisher: pub.publisher, publicationStates: readPublicationStates });
    const w = await fitness.record(record(4, 'kf-direct'), TEST_SERVICE);
    expect(w.publication.state).toBe('PUBLISHED_DIRECT');
    const shard = env.resources.mysql.shard(w.result.shard).db;
    expect(await count(shard, 'outbox_events')).toBe(0);
    expect(await count(shard, 'event_publications')).toBe(0);
    const again = await fitness.record(record(4, 'kf-direct'), TEST_SERVICE);
    expect(again).toMatchObject({ replayed: true, publication: { state: 'PUBLISHED_DIRECT' } });
  });

  it('stores the fallback row on the shard when Kafka refuses, and the relay publishes it from MySQL', async () => {
    const pub = testKafkaFirstPublisher({ brokers: [CLOSED_PORT_BROKER], topics: env.resources.topics });
    closers.push(pub);
    const fitness = fitnessService({ shards: env.resources.mysql, publisher: pub.publisher, publicationStates: readPublicationStates });
    const w = await fitness.record(record(5, 'kf-fallback'), TEST_SERVICE);
    expect(w.publication).toEqual({ eventId: `fitness-result-${w.result.dataId}-v1`, state: 'NOT_PUBLISHED' });
    const shardIndex = w.result.shard;
    const db = env.resources.mysql.shard(shardIndex).db;
    expect(await db('event_publications').where({ event_id: w.publication.eventId }).first()).toMatchObject({
      status: 'NOT_PUBLISHED',
      domain: 'fitness',
      direct_attempts: 3,
    });

    const sink = fromKafkaSink(env.resources.kafka, { timeoutMs: 5000 });
    try {
      const store = mysqlStore(env, shardIndex);
      const r = await relayOnce(tableOf(store, 'publications'), testRelayDeps(store, sink, {}, 'publications'));
      expect(r).toMatchObject({ claimed: 1, sent: 1 });
    } finally {
      await sink.close();
    }
    const msgs = await readTopic(env.resources.kafka, env.resources.topics.events.fitness, (m) =>
      m.some((x) => x.headers?.eventId?.toString() === w.publication.eventId),
    );
    const got = msgs.find((x) => x.headers?.eventId?.toString() === w.publication.eventId)!;
    expect(got.key!.toString()).toBe(String(w.result.dataId));
    expect(JSON.parse(got.value!.toString())).toMatchObject({
      type: 'FitnessResultRecorded',
      version: 1,
      data: { result: '2.210', userId: 5 },
    });
  });
  it('reports FALLBACK_STORE_FAILED when the shard stalls the fallback write past its timeout; the late row is still relayed', async () => {
    const fallbackTimeoutMs = 500;
    const pub = testKafkaFirstPublisher({ brokers: [CLOSED_PORT_BROKER], topics: env.resources.topics, fallbackTimeoutMs });
    closers.push(pub);
    const fitness = fitnessService({ shards: env.resources.mysql, publisher: pub.publisher, publicationStates: readPublicationStates });
    // Another session of each shard holds event_publications (LOCK TABLES ... WRITE): the fallback
    // INSERT waits for it, as on a stalled server, while the result row itself commits normally.
    const lockers = env.settings.fitnessShardDatabases.map((_, i) => shardKnex(env.settings, i, 1));
    let w: Awaited<ReturnType<ReturnType<typeof fitnessService>['record']>>;
    let elapsedMs: number;
    try {
      for (const l of lockers) await l.raw('LOCK TABLES event_publications WRITE');
      const started = Date.now();
      w = await fitness.record(record(6, 'kf-fallback-slow'), TEST_SERVICE);
      elapsedMs = Date.now() - started;
      expect(await metricValue(pub.registry, 'tidemark_kafka_first_fallback_stores_total', { domain: 'fitness', result: 'failed' })).toBe(
        1,
      );
    } finally {
      for (const l of lockers) await l.raw('UNLOCK TABLES').finally(() => l.destroy());
    }
    expect(w.publication).toEqual({ eventId: `fitness-result-${w.result.dataId}-v1`, state: 'FALLBACK_STORE_FAILED' });
    expect(elapsedMs).toBeGreaterThanOrEqual(fallbackTimeoutMs);
    expect(elapsedMs).toBeLessThan(3500 + fallbackTimeoutMs); // the test publisher's direct deadline + the fallback timeout
    const db = env.resources.mysql.shard(w.result.shard).db;
    expect(await db('fitness_results').where({ data_id: w.result.dataId }).first()).toMatchObject({ version: 1 });
    // The INSERT was only waiting: it lands once the table is free, and the relay publishes it from MySQL.
    const row = await waitFor(async () => db('event_publications').where({ event_id: w.publication.eventId }).first(), {
      timeoutMs: 10000,
      intervalMs: 50,
      what: 'the late fallback row',
    });
    expect(row).toMatchObject({ status: 'NOT_PUBLISHED', domain: 'fitness', direct_attempts: 3, direct_result: 'failure' });
    const sink = fromKafkaSink(env.resources.kafka, { timeoutMs: 5000 });
    try {
      const store = mysqlStore(env, w.result.shard);
      expect(await relayOnce(tableOf(store, 'publications'), testRelayDeps(store, sink, {}, 'publications'))).toMatchObject({
        claimed: 1,
        sent: 1,
      });
    } finally {
      await sink.close();
    }
    expect(await db('event_publications').where({ event_id: w.publication.eventId }).first()).toMatchObject({ status: 'PUBLISHED' });
  });
});
