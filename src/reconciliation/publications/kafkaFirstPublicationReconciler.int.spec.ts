// The publication reconciler on real PostgreSQL and ClickHouse: cutoff and anti-join, the
// deterministic (byte-identical) rebuilt row, delivery evidence from the ClickHouse `orders`
// projection (rows written through the projector's own mapper and insert), bounded batches with saved
// progress, one reconciler at a time, the loop, and an evidence outage. The 1,000-order measurement:
// noRepublish.int.spec.ts.
import { toEnvelope, toKafkaRecord } from '../../publication/event';
import { createRegistry } from '../../metrics/registry';
import { orderDecoder } from '../../domains/orders/projection/orderDecoder';
import { ORDERS } from '../../domains/orders/projection/ordersTable';
import { insertRows } from '../../projections/sql/insertRows';
import { fixedClock, randomIds } from '../../shared/clock';
import { sleep, waitFor } from '../../shared/lifecycle';
import { silentLogger } from '../../shared/logger';
import { ident } from '../../infra/clickhouse/literal';
import { decidePlaceOrder } from '../../domains/orders/decide';
import { orderPlacedEvent } from '../../domains/orders/events';
import { insertOrder } from '../../domains/orders/insertOrder';
import type { Order } from '../../domains/orders/order';
import { publicationRowFor } from '../../publication/kafkaFirst/publicationRow';
import { upsertNotPublished } from '../../publication/kafkaFirst/upsertNotPublished';
import { metricValue } from '../../../test/support/kafkaFirst';
import { ordersReconciliation } from '../../domains/orders/reconciliation/ordersReconciliation';
import { projectionMappingOf } from '../target/projectionMapping';

const ordersProjection = projectionMappingOf('orders');
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { fromClickHouseProjectionEvidence, type DeliveryEvidence } from './deliveryEvidence';
import {
  reconcileOnce,
  startKafkaFirstPublicationReconciler,
  type KafkaFirstPublicationReconcilerDeps,
} from './kafkaFirstPublicationReconciler';

const MIN = 60_000;
let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.cleanup();
});

let seq = 0;
async function storeOrder(createdAt: Date): Promise<Order> {
  seq++;
  const d = decidePlaceOrder(
    {
      customerId: `c-${seq}`,
      currency: 'EUR',
      idempotencyKey: `k-${seq}-${randomIds.uuid()}`,
      items: [{ sku: 'S', quantity: seq, unitPrice: '1.5' }],
    },
    { orderId: randomIds.uuid(), now: createdAt, limits: { maxItems: 10 }, changedBy: 'test-service' },
  );
  await env.resources.pg.transaction((trx) =>
    insertOrder(trx, d.order, { owner: 'test-service', key: `key-${d.order.orderId}` }, d.requestHash),
  );
  return d.order;
}

async function project(orders: Order[]): Promise<void> {
  const rows = orders.map((o, i) => {
    const m = orderDecoder.decode(toEnvelope(orderPlacedEvent(o, 1)), { kafkaPartition: 0, kafkaOffset: String(i) }, Date.now());
    if (!m.ok) throw new Error('order event did not map');
    return m.value;
  });
  await insertRows(env.resources.clickhouse, env.settings.clickhouseDatabase, ORDERS, rows);
}

async function reset(): Promise<void> {
  await env.resources.pg.raw('TRUNCATE orders, event_publications, outbox_events, publication_reconciler_progress');
  await env.resources.clickhouse.command({ query: `TRUNCATE TABLE ${ident(env.settings.clickhouseDatabase)}.orders` });
}

describe('kafka-first publication reconciler (orders)', () => {
  const registry = createRegistry(false);
  const T = new Date('2030-06-01T12:00:00.000Z');
  const deps = (over: Partial<KafkaFirstPublicationReconcilerDeps> = {}): KafkaFirstPublicationReconcilerDeps => ({
    part: { domain: 'orders', unpublished: ordersReconciliation.unpublished! },
    db: env.resources.pg,
    evidence: fromClickHouseProjectionEvidence(env.resources.clickhouse, env.settings.clickhouseDatabase, ordersProjection),
    topics: env.resources.topics,
    clock: fixedClock(T),
    graceMs: 5 * MIN,
    batchSize: 100,
    registry,
    logger: silentLogger,
    ...over,
  });
  const pubRow = (o: Order) =>
    env.resources
      .pg('event_publications')
      .where({ event_id: `order-placed:${o.orderId}:v1` })
      .first();

  beforeEach(reset);

  it('rebuilds exactly the orders on or before the cutoff with no publication row and no evidence of delivery', async () => {
    const lost = await storeOrder(new Date(T.getTime() - 10 * MIN));
    const atCutoff = await storeOrder(new Date(T.getTime() - 5 * MIN));
    const young = await storeOrder(new Date(T.getTime() - 5 * MIN + 1));
    const withRow = await storeOrder(new Date(T.getTime() - 20 * MIN));
    const viaOutbox = await storeOrder(new Date(T.getTime() - 20 * MIN));
    const delivered = await storeOrder(new Date(T.getTime() - 30 * MIN));
    await upsertNotPublished(
      env.resources.pg,
      publicationRowFor(orderPlacedEvent(withRow, 1), env.resources.topics, 'DIRECT_FALLBACK', { attempts: 3, result: 'failure' }),
    );
    await env.resources
      .pg('event_publications')
      .where({ event_id: `order-placed:${withRow.orderId}:v1` })
      .update({ status: 'PUBLISHED' });
    const rec = toKafkaRecord(orderPlacedEvent(viaOutbox, 1));
    await env.resources.pg('outbox_events').insert({
      event_id: `order-placed:${viaOutbox.orderId}:v1`,
      domain: 'orders',
      aggregate_id: viaOutbox.orderId,
      version: 1,
      topic: env.resources.topics.events.orders,
      message_key: rec.key,
      message_value: rec.value,
      headers: JSON.stringify(rec.headers),
      status: 'SENT',
    });
    await project([delivered]);

    const clock = fixedClock(T);
    const r = await reconcileOnce(deps({ clock }));
    expect(r).toMatchObject({ busy: false, caughtUp: true, examined: 3, reconstructed: 2, delivered: 1, alreadyPresent: 0 });

    // Deterministic rows: the very event the direct path would have sent.
    for (const o of [lost, atCutoff]) {
      const row = await pubRow(o);
      expect(row).toMatchObject({
        event_id: `order-placed:${o.orderId}:v1`,
        status: 'NOT_PUBLISHED',
        source: 'RECONCILER',
        direct_attempts: 0,
        direct_result: null,
        message_key: o.orderId,
        aggregate_id: o.orderId,
        version: 1,
      });
      expect(row.message_value).toBe(toKafkaRecord(orderPlacedEvent(o, 1)).value);
      expect(JSON.parse(row.headers)).toEqual(toKafkaRecord(orderPlacedEvent(o, 1)).headers);
    }
    expect(await pubRow(young)).toBeUndefined();
    expect(await pubRow(delivered)).toBeUndefined();
    expect(await pubRow(viaOutbox)).toBeUndefined();
    expect((await pubRow(withRow)).status).toBe('PUBLISHED');

    // Saved progress: the same orders are not examined again; the young one once it passes the cutoff.
    expect(await reconcileOnce(deps({ clock }))).toMatchObject({ examined: 0, reconstructed: 0 });
    clock.advance(MIN);
    expect(await reconcileOnce(deps({ clock }))).toMatchObject({ examined: 1, reconstructed: 1 });
    expect((await pubRow(young)).source).toBe('RECONCILER');
    expect(
      await metricValue(registry, 'tidemark_publication_reconciler_orders_total', { domain: 'orders', result: 'reconstructed' }),
    ).toBeGreaterThanOrEqual(3);
    expect(
      await metricValue(registry, 'tidemark_publication_reconciler_orders_total', { domain: 'orders', result: 'delivered' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('works in bounded batches, each order once, and lets only one reconciler work at a time', async () => {
    const orders: Order[] = [];
    for (let i = 0; i < 7; i++) orders.push(await storeOrder(new Date(T.getTime() - (60 - i) * MIN)));
    const batches = [];
    for (;;) {
      const r = await reconcileOnce(deps({ batchSize: 3 }));
      batches.push(r.examined);
      if (r.caughtUp) break;
    }
    expect(batches).toEqual([3, 3, 1]);
    expect(Number((await env.resources.pg('event_publications').count({ n: '*' }))[0]!.n)).toBe(7);

    // Another reconciler holds the progress row: this one skips instead of doing the same work.
    await storeOrder(new Date(T.getTime() - 50 * MIN));
    await env.resources.pg.raw("UPDATE publication_reconciler_progress SET scanned_created_at = 'epoch' WHERE scope = 'orders'");
    const trx = await env.resources.pg.transaction();
    try {
      await trx.raw("SELECT 1 FROM publication_reconciler_progress WHERE scope = 'orders' FOR UPDATE");
      expect(await reconcileOnce(deps())).toMatchObject({ busy: true, examined: 0 });
    } finally {
      await trx.rollback();
    }
    expect(await reconcileOnce(deps())).toMatchObject({ busy: false, examined: 1, reconstructed: 1 });
  });

  it('runs as a loop of passes; stop() finishes the batch in flight, then starts no pass', async () => {
    const intervalMs = 50;
    const lost = await storeOrder(new Date(T.getTime() - 10 * MIN));
    const real = fromClickHouseProjectionEvidence(env.resources.clickhouse, env.settings.clickhouseDatabase, ordersProjection);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let evidenceCalls = 0;
    // The batch stops inside its transaction (progress row locked) until the test lets it go on.
    const gated: DeliveryEvidence = {
      async delivered(events) {
        evidenceCalls++;
        await gate;
        return real.delivered(events);
      },
    };
    const loop = startKafkaFirstPublicationReconciler({ ...deps({ evidence: gated }), intervalMs });
    await waitFor(() => evidenceCalls > 0, { timeoutMs: 10000, intervalMs: 10, what: 'a batch in flight' });
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await sleep(intervalMs * 4);
    expect({ stoppedBeforeTheBatchEnded: stopped, row: await pubRow(lost) }).toEqual({ stoppedBeforeTheBatchEnded: false, row: undefined });
    release();
    await stopping;
    // The batch in flight when stop() was called committed its row and its progress.
    expect(await pubRow(lost)).toMatchObject({ status: 'NOT_PUBLISHED', source: 'RECONCILER' });
    expect(await env.resources.pg('publication_reconciler_progress').where({ scope: 'orders' }).first()).toMatchObject({ scope: 'orders' });

    // After stop() no pass runs: over 20 intervals a new lost order (progress rewound) is never examined.
    const calls = evidenceCalls;
    const later = await storeOrder(new Date(T.getTime() - 10 * MIN + 1));
    await env.resources.pg.raw("UPDATE publication_reconciler_progress SET scanned_created_at = 'epoch'");
    await sleep(intervalMs * 20);
    expect({ evidenceCalls, row: await pubRow(later) }).toEqual({ evidenceCalls: calls, row: undefined });
    // The same order is found by a pass, so the check above could have seen one.
    expect(await reconcileOnce(deps())).toMatchObject({ reconstructed: 1 });
    expect(await pubRow(later)).toMatchObject({ source: 'RECONCILER' });
  });

  it('changes nothing when the delivery evidence cannot be read', async () => {
    await storeOrder(new Date(T.getTime() - 10 * MIN));
    const broken = fromClickHouseProjectionEvidence(env.resources.clickhouse, env.settings.clickhouseDatabase, {
      ...ordersProjection,
      table: 'no_such_table',
    });
    await expect(reconcileOnce(deps({ evidence: broken }))).rejects.toThrow(/no_such_table/);
    expect(Number((await env.resources.pg('event_publications').count({ n: '*' }))[0]!.n)).toBe(0);
    expect(await reconcileOnce(deps())).toMatchObject({ reconstructed: 1 });
  });
});
