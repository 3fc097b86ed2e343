// Placing orders on real PostgreSQL and Kafka under the kafka-first strategy: the order transaction
// writes only the order; a direct success leaves no publication row; three real failures (closed
// port) or three timeouts (a blackhole broker, response time measured against its bound) store a
// NOT_PUBLISHED row; a failing fallback store (the table renamed away) or one slower than its timeout
// (the table locked by another session) gives a visible FALLBACK_STORE_FAILED with a metric and a safe
// log; one idempotency key sent concurrently with the same or with different content places one order.
import { toKafkaRecord } from '../../publication/event';
import { publicationRowFor } from '../../publication/kafkaFirst/publicationRow';
import { upsertNotPublished } from '../../publication/kafkaFirst/upsertNotPublished';
import { randomIds, systemClock } from '../../shared/clock';
import { waitFor } from '../../shared/lifecycle';
import { CLOSED_PORT_BROKER, readTopic, startBlackhole, type Blackhole } from '../../../test/support/kafkaProbe';
import { metricValue, testKafkaFirstPublisher, type TestPublisher } from '../../../test/support/kafkaFirst';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { orderPlacedEvent } from './events';
import { createOrdersService, type OrdersService } from './ordersService';
import type { PlaceOrderCommand } from './order';
import { readPublicationState } from '../../publication/kafkaFirst/readPublicationStates';
import { TEST_SERVICE } from '../../../test/support/principals';

const cmd = (key: string, over: Partial<PlaceOrderCommand> = {}): PlaceOrderCommand => ({
  customerId: 'cust-1',
  currency: 'EUR',
  idempotencyKey: key,
  items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9' }],
  ...over,
});

describe('placeOrder with kafka-first publication (PostgreSQL + Kafka)', () => {
  let env: TestEnv;
  let blackhole: Blackhole;
  const publishers: TestPublisher[] = [];

  beforeAll(async () => {
    env = await createTestEnv();
    blackhole = await startBlackhole();
  });
  afterAll(async () => {
    await Promise.all(publishers.map((p) => p.close()));
    await blackhole?.close();
    await env?.cleanup();
  });

  function service(
    brokers: string[],
    opts: { attemptTimeoutMs?: number; deadlineMs?: number; fallbackTimeoutMs?: number } = {},
  ): { orders: OrdersService; pub: TestPublisher } {
    const pub = testKafkaFirstPublisher({ brokers, topics: env.resources.topics, ...opts });
    publishers.push(pub);
    const orders = createOrdersService({
      db: env.resources.pg,
      publisher: pub.publisher,
      clock: systemClock,
      ids: randomIds,
      limits: { maxItems: 100 },
      publicationState: readPublicationState,
    });
    return { orders, pub };
  }

  const count = async (table: string) => Number((await env.resources.pg(table).count({ n: '*' }))[0]!.n);

  it('writes only the order row and publishes directly: PUBLISHED_DIRECT, no fallback row, the exact event in Kafka', async () => {
    const { orders, pub } = service(env.settings.kafkaBrokers);
    const before = { orders: await count('orders'), pubs: await count('event_publications'), outbox: await count('outbox_events') };
    const r = await orders.placeOrder(
      cmd('direct-1', {
        items: [
          { sku: 'A', quantity: 2, unitPrice: '19.9' },
          { sku: 'B', quantity: 1, unitPrice: '0.1' },
        ],
      }),
      TEST_SERVICE,
    );

    expect(r.outcome).toBe('PUBLISHED_DIRECT');
    expect(r.publication).toEqual({ eventId: `order-placed:${r.order.orderId}:v1`, state: 'PUBLISHED_DIRECT' });
    expect(r.order.total).toBe('39.9000');
    expect(r.order.itemCount).toBe(3);
    expect(await count('orders')).toBe(before.orders + 1);
    expect(await count('event_publications')).toBe(before.pubs);
    expect(await count('outbox_events')).toBe(before.outbox);

    const msgs = await readTopic(env.resources.kafka, env.resources.topics.events.orders, (m) =>
      m.some((x) => x.key?.toString() === r.order.orderId),
    );
    const got = msgs.find((x) => x.key?.toString() === r.order.orderId)!;
    expect(got.value!.toString()).toBe(toKafkaRecord(orderPlacedEvent(r.order, 1)).value);
    expect(got.headers!.eventId!.toString()).toBe(r.eventId);
    expect(JSON.parse(got.value!.toString())).toMatchObject({
      eventId: r.eventId,
      type: 'OrderPlaced',
      version: 1,
      data: { total: '39.9000', currency: 'EUR' },
    });
    expect(await metricValue(pub.registry, 'tidemark_kafka_first_direct_attempts_total', { domain: 'orders', result: 'success' })).toBe(1);
  });

  it('stores a NOT_PUBLISHED fallback row after three failed direct attempts (broker port closed)', async () => {
    const { orders, pub } = service([CLOSED_PORT_BROKER]);
    const r = await orders.placeOrder(cmd('closed-1'), TEST_SERVICE);

    expect(r.outcome).toBe('FALLBACK_STORED');
    expect(r.publication!.state).toBe('NOT_PUBLISHED');
    const row = await env.resources.pg('event_publications').where({ event_id: r.eventId }).first();
    expect(row).toMatchObject({
      status: 'NOT_PUBLISHED',
      source: 'DIRECT_FALLBACK',
      direct_attempts: 3,
      direct_result: 'failure',
      relay_attempts: 0,
      domain: 'orders',
      aggregate_id: r.order.orderId,
      message_key: r.order.orderId,
    });
    // The stored bytes are exactly what the direct attempts tried to send.
    expect(row.message_value).toBe(toKafkaRecord(orderPlacedEvent(r.order, 1)).value);
    expect(await metricValue(pub.registry, 'tidemark_kafka_first_direct_attempts_total', { domain: 'orders', result: 'failure' })).toBe(3);
    expect(await metricValue(pub.registry, 'tidemark_kafka_first_fallback_stores_total', { domain: 'orders', result: 'stored' })).toBe(1);
    expect(
      await metricValue(pub.registry, 'tidemark_kafka_first_publish_outcomes_total', { domain: 'orders', outcome: 'fallback_stored' }),
    ).toBe(1);
  });

  it('bounds the response on a broker that never answers: three timeouts (delivery unknown), then FALLBACK_STORED', async () => {
    const attemptTimeoutMs = 300;
    const deadlineMs = 1000;
    const fallbackTimeoutMs = 2000;
    const { orders, pub } = service([blackhole.broker], { attemptTimeoutMs, deadlineMs, fallbackTimeoutMs });
    const started = Date.now();
    const r = await orders.placeOrder(cmd('blackhole-1'), TEST_SERVICE);
    const elapsedMs = Date.now() - started;

    expect(r.outcome).toBe('FALLBACK_STORED');
    // The broker never answers, so only the three attempt timeouts (counted below) ended the wait, and
    // the response came within the documented bound: direct deadline + fallback write timeout (the
    // order insert and the fallback upsert take milliseconds, leaving about 2 s of margin).
    expect(elapsedMs).toBeLessThan(deadlineMs + fallbackTimeoutMs);
    const row = await env.resources.pg('event_publications').where({ event_id: r.eventId }).first();
    expect(row).toMatchObject({ status: 'NOT_PUBLISHED', direct_attempts: 3, direct_result: 'timeout' });
    expect(await metricValue(pub.registry, 'tidemark_kafka_first_direct_attempts_total', { domain: 'orders', result: 'timeout' })).toBe(3);
  });

  it('returns FALLBACK_STORE_FAILED when Kafka and the fallback store both fail; the order stands; metric and a safe log', async () => {
    const { orders, pub } = service([CLOSED_PORT_BROKER]);
    const secretCustomer = 'cust-SECRET-4242';
    await env.resources.pg.raw('ALTER TABLE event_publications RENAME TO event_publications_away');
    let r;
    try {
      r = await orders.placeOrder(cmd('store-fails-1', { customerId: secretCustomer }), TEST_SERVICE);
    } finally {
      await env.resources.pg.raw('ALTER TABLE event_publications_away RENAME TO event_publications');
    }
    expect(r.outcome).toBe('FALLBACK_STORE_FAILED');
    expect(r.publication!.state).toBe('FALLBACK_STORE_FAILED');
    expect(await env.resources.pg('orders').where({ order_id: r.order.orderId }).first()).toMatchObject({
      order_id: r.order.orderId,
      customer_id: secretCustomer,
      total: r.order.total,
    });
    expect(await env.resources.pg('event_publications').where({ event_id: r.eventId }).first()).toBeUndefined();
    expect(await metricValue(pub.registry, 'tidemark_kafka_first_fallback_stores_total', { domain: 'orders', result: 'failed' })).toBe(1);
    expect(
      await metricValue(pub.registry, 'tidemark_kafka_first_publish_outcomes_total', {
        domain: 'orders',
        outcome: 'fallback_store_failed',
      }),
    ).toBe(1);

    const logged = pub.log.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => String(l.msg).includes('fallback store failed'));
    expect(logged).toMatchObject({ level: 50, eventId: r.eventId, aggregateId: r.order.orderId });
    expect(JSON.stringify(logged)).not.toContain(secretCustomer);
    expect(JSON.stringify(pub.log.lines)).not.toContain(secretCustomer);
  });

  it('reports FALLBACK_STORE_FAILED when the fallback write outlasts its timeout; the write may still land afterwards', async () => {
    const fallbackTimeoutMs = 500;
    const { orders, pub } = service([CLOSED_PORT_BROKER], { fallbackTimeoutMs });
    // Another session holds the table: the fallback INSERT waits for it (a stalled store, not an error).
    const locker = await env.resources.pg.transaction();
    let r: Awaited<ReturnType<OrdersService['placeOrder']>>;
    let elapsedMs: number;
    try {
      await locker.raw('LOCK TABLE event_publications IN EXCLUSIVE MODE');
      const started = Date.now();
      r = await orders.placeOrder(cmd('fallback-slow-1'), TEST_SERVICE);
      elapsedMs = Date.now() - started;
      expect(await metricValue(pub.registry, 'tidemark_kafka_first_fallback_stores_total', { domain: 'orders', result: 'failed' })).toBe(1);
    } finally {
      await locker.rollback();
    }
    expect(r).toMatchObject({ outcome: 'FALLBACK_STORE_FAILED', publication: { state: 'FALLBACK_STORE_FAILED' } });
    expect(elapsedMs).toBeGreaterThanOrEqual(fallbackTimeoutMs);
    expect(elapsedMs).toBeLessThan(3500 + fallbackTimeoutMs); // the test publisher's direct deadline + the fallback timeout
    expect(await env.resources.pg('orders').where({ order_id: r.order.orderId }).first()).toMatchObject({ order_id: r.order.orderId });
    const logged = pub.log.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => String(l.msg).includes('fallback store failed'));
    expect(logged).toMatchObject({
      level: 50,
      eventId: r.eventId,
      storeError: { summary: `fallback store did not finish within ${fallbackTimeoutMs} ms` },
    });
    // The timed-out INSERT was not cancelled: once the table is free it lands, and the relay delivers it.
    expect(
      await waitFor(async () => env.resources.pg('event_publications').where({ event_id: r.eventId }).first(), {
        timeoutMs: 10000,
        intervalMs: 50,
        what: 'the late fallback row',
      }),
    ).toMatchObject({ status: 'NOT_PUBLISHED', source: 'DIRECT_FALLBACK', direct_attempts: 3 });
  });

  it('gives concurrent requests with one idempotency key and different content one order; the others are conflicts', async () => {
    const { orders } = service([CLOSED_PORT_BROKER], { attemptTimeoutMs: 200, deadlineMs: 1000 });
    const a = cmd('race-diff-1', { items: [{ sku: 'A', quantity: 1, unitPrice: '1' }] });
    const b = cmd('race-diff-1', { items: [{ sku: 'B', quantity: 2, unitPrice: '2' }] });
    const sent = Array.from({ length: 8 }, (_, i) => (i % 2 ? b : a));
    const settled = await Promise.allSettled(sent.map((c) => orders.placeOrder(c, TEST_SERVICE)));
    const placed = settled.flatMap((x) => (x.status === 'fulfilled' ? [x.value] : []));
    const winner = placed.find((p) => !p.replayed)!;
    expect(placed.filter((p) => !p.replayed)).toHaveLength(1);
    const winnerSku = winner.order.items[0]!.sku;
    // Every request with the winner's content got the winner's order; every other one a typed conflict.
    settled.forEach((x, i) => {
      if (sent[i]!.items[0]!.sku === winnerSku)
        expect(x).toMatchObject({ status: 'fulfilled', value: { order: { orderId: winner.order.orderId } } });
      else expect(x).toMatchObject({ status: 'rejected', reason: { code: 'IDEMPOTENCY_CONFLICT' } });
    });
    const stored = await env.resources.pg('orders').where({ idempotency_key: 'race-diff-1' }).select('order_id', 'items');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ order_id: winner.order.orderId, items: [expect.objectContaining({ sku: winnerSku })] });
  });

  it('writes nothing for invalid orders and names the field and reason', async () => {
    const { orders } = service(env.settings.kafkaBrokers);
    const before = await count('orders');
    const cases: [Partial<PlaceOrderCommand>, string, string][] = [
      [{ items: [] }, 'items', 'EMPTY_ITEMS'],
      [{ items: [{ sku: 'A', quantity: 0, unitPrice: '1' }] }, 'items[0].quantity', 'NON_POSITIVE_QUANTITY'],
      [{ items: [{ sku: 'A', quantity: 1, unitPrice: '-0.01' }] }, 'items[0].unitPrice', 'NEGATIVE_PRICE'],
      [{ currency: 'EUX' }, 'currency', 'UNKNOWN_CURRENCY'],
      [{ items: Array.from({ length: 101 }, () => ({ sku: 'A', quantity: 1, unitPrice: '1' })) }, 'items', 'TOO_MANY_ITEMS'],
      [{ customerId: 'x'.repeat(65) }, 'customerId', 'TOO_LARGE'],
    ];
    for (const [over, field, reason] of cases) {
      await expect(orders.placeOrder(cmd(`bad-${reason}`, over), TEST_SERVICE)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { field, reason },
      });
    }
    expect(await count('orders')).toBe(before);
  });

  it('treats a retried request as a replay of the first order and a reused key with other content as a conflict', async () => {
    const { orders } = service([CLOSED_PORT_BROKER]);
    const first = await orders.placeOrder(cmd('idem-1'), TEST_SERVICE);
    const again = await orders.placeOrder(cmd('idem-1', { items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9000' }] }), TEST_SERVICE);
    expect(again).toMatchObject({
      outcome: 'ALREADY_PLACED',
      replayed: true,
      eventId: first.eventId,
      publication: { state: 'NOT_PUBLISHED' },
    });
    expect(again.order.orderId).toBe(first.order.orderId);
    await expect(orders.placeOrder(cmd('idem-1', { customerId: 'someone-else' }), TEST_SERVICE)).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
    });
    expect(Number((await env.resources.pg('orders').where({ idempotency_key: 'idem-1' }).count({ n: '*' }))[0]!.n)).toBe(1);
  });

  it('places an order with one statement and no BEGIN/COMMIT under kafka-first', async () => {
    const { orders } = service(env.settings.kafkaBrokers);
    const sql: string[] = [];
    const onQuery = (q: { sql: string }) => sql.push(q.sql.trim().split(/\s+/)[0]!.toUpperCase());
    env.resources.pg.on('query', onQuery);
    try {
      expect((await orders.placeOrder(cmd('one-statement-1'), TEST_SERVICE)).outcome).toBe('PUBLISHED_DIRECT');
    } finally {
      env.resources.pg.off('query', onQuery);
    }
    expect(sql).toEqual(['INSERT']);
  });

  it('gives concurrent requests with one idempotency key one order: the first places it, the others replay it', async () => {
    const { orders } = service([CLOSED_PORT_BROKER], { attemptTimeoutMs: 200, deadlineMs: 1000 });
    const all = await Promise.all(Array.from({ length: 8 }, () => orders.placeOrder(cmd('race-1'), TEST_SERVICE)));
    expect(new Set(all.map((r) => r.order.orderId)).size).toBe(1);
    expect(all.filter((r) => !r.replayed)).toHaveLength(1);
    expect(all.filter((r) => r.replayed).every((r) => r.outcome === 'ALREADY_PLACED')).toBe(true);
    expect(Number((await env.resources.pg('orders').where({ idempotency_key: 'race-1' }).count({ n: '*' }))[0]!.n)).toBe(1);
  });

  it('never moves a PUBLISHED or DEAD_LETTER row back to NOT_PUBLISHED on a later upsert', async () => {
    const { orders } = service([CLOSED_PORT_BROKER]);
    const r = await orders.placeOrder(cmd('upsert-1'), TEST_SERVICE);
    const row = publicationRowFor(orderPlacedEvent(r.order, 1), env.resources.topics, 'RECONCILER');
    for (const status of ['PUBLISHED', 'DEAD_LETTER'] as const) {
      await env.resources.pg('event_publications').where({ event_id: r.eventId }).update({ status });
      expect(await upsertNotPublished(env.resources.pg, row)).toEqual({ inserted: false, status });
      expect((await env.resources.pg('event_publications').where({ event_id: r.eventId }).first()).status).toBe(status);
    }
    expect(Number((await env.resources.pg('event_publications').where({ event_id: r.eventId }).count({ n: '*' }))[0]!.n)).toBe(1);
  });
});
