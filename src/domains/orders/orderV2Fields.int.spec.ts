// The sales channel and who placed an order, on real PostgreSQL and Kafka with the service writing
// event schema version 2 (kafka-first): stored, published, part of the idempotency request (the same
// key with another channel is a conflict), refused when not one of the contract's channels, and rebuilt
// from the stored row into the very event first published.
import { toKafkaRecord } from '../../publication/event';
import { readPublicationState } from '../../publication/kafkaFirst/readPublicationStates';
import { fixedSchemaVersions } from '../../publication/schemaVersions';
import { randomIds, systemClock } from '../../shared/clock';
import { TidemarkError } from '../../shared/errors';
import { testKafkaFirstPublisher, type TestPublisher } from '../../../test/support/kafkaFirst';
import { readTopic } from '../../../test/support/kafkaProbe';
import { customerOf } from '../../../test/support/principals';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { orderPlacedEvent } from './events';
import type { PlaceOrderCommand } from './order';
import { createOrdersService, type OrdersService } from './ordersService';
import { readOrders } from './reconciliation/sql/readAuthoritative';

const customer = customerOf('cust-v2-subject', 'cust-v2');
const cmd = (key: string, over: Partial<PlaceOrderCommand> = {}): PlaceOrderCommand => ({
  currency: 'EUR',
  idempotencyKey: key,
  items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9' }],
  ...over,
});

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'NO_ERROR';
  } catch (e) {
    return e instanceof TidemarkError ? e.code : 'UNTYPED';
  }
}

describe('orders schema version 2 fields (PostgreSQL + Kafka, kafka-first)', () => {
  let env: TestEnv;
  let pub: TestPublisher;
  let orders: OrdersService;

  beforeAll(async () => {
    env = await createTestEnv();
    pub = testKafkaFirstPublisher({ brokers: env.settings.kafkaBrokers, topics: env.resources.topics });
    orders = createOrdersService({
      db: env.resources.pg,
      publisher: pub.publisher,
      clock: systemClock,
      ids: randomIds,
      limits: { maxItems: 100 },
      publicationState: readPublicationState,
      schemaVersions: fixedSchemaVersions({ orders: 2 }),
    });
  });
  afterAll(async () => {
    await pub?.close();
    await env?.cleanup();
  });

  it('stores and publishes the channel and the placing subject; the event rebuilt from the row is the same', async () => {
    const r = await orders.placeOrder(cmd('v2-store', { channel: 'store' }), customer);
    expect(r.order).toMatchObject({ channel: 'store', changedBy: 'cust-v2-subject' });
    const row = (await env.resources.pg('orders').where({ order_id: r.order.orderId }).first()) as { channel: string };
    expect(row.channel).toBe('store');

    const msgs = await readTopic(env.resources.kafka, env.resources.topics.events.orders, (m) =>
      m.some((x) => x.key?.toString() === r.order.orderId),
    );
    const got = msgs.find((x) => x.key?.toString() === r.order.orderId)!;
    expect(JSON.parse(got.value!.toString())).toMatchObject({
      schemaVersion: 2,
      data: { channel: 'store', changedBy: 'cust-v2-subject' },
    });
    // The reconciler's source reader rebuilds the event from the row alone: byte-identical.
    const window = {
      domain: 'orders' as const,
      from: new Date(r.order.createdAt.getTime() - 1000),
      to: new Date(r.order.createdAt.getTime() + 1000),
    };
    const [stored] = await readOrders(env.resources.pg, window, [r.order.orderId]);
    expect(toKafkaRecord(orderPlacedEvent(stored!, 2)).value).toBe(got.value!.toString());
  });

  it('makes the channel part of the idempotency request', async () => {
    const first = await orders.placeOrder(cmd('v2-key', { channel: 'web' }), customer);
    const again = await orders.placeOrder(cmd('v2-key', { channel: 'web' }), customer);
    expect(again).toMatchObject({ replayed: true, outcome: 'ALREADY_PLACED' });
    expect(again.order).toEqual(first.order);
    expect(await codeOf(orders.placeOrder(cmd('v2-key', { channel: 'mobile' }), customer))).toBe('IDEMPOTENCY_CONFLICT');
    expect(await codeOf(orders.placeOrder(cmd('v2-key'), customer))).toBe('IDEMPOTENCY_CONFLICT');
    // Without a channel the fingerprint is the one orders had before channels: a retry still replays.
    await orders.placeOrder(cmd('v2-none'), customer);
    expect((await orders.placeOrder(cmd('v2-none'), customer)).replayed).toBe(true);
    expect(await codeOf(orders.placeOrder(cmd('v2-none', { channel: 'api' }), customer))).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('refuses a channel outside the contract (VALIDATION_FAILED) and writes nothing', async () => {
    const count = async () => Number((await env.resources.pg('orders').count({ n: '*' }))[0]!.n);
    const before = await count();
    expect(await codeOf(orders.placeOrder(cmd('v2-fax', { channel: 'fax' }), customer))).toBe('VALIDATION_FAILED');
    expect(await codeOf(orders.placeOrder(cmd('v2-upper', { channel: 'WEB' }), customer))).toBe('VALIDATION_FAILED');
    expect(await count()).toBe(before);
  });
});
