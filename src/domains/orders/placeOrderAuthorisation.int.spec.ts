// Authorisation of placing orders on real PostgreSQL, enforced by the service: a customer places only
// its own orders (customerId taken from its token when omitted, another one FORBIDDEN), operators and
// services must name the customer, roles without order writes are FORBIDDEN; the placing subject is
// stored as changed_by (never in the event); idempotency keys belong to the caller.
import { customerOf, teacherOf, TEST_OPERATOR, TEST_SERVICE } from '../../../test/support/principals';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { toKafkaRecord } from '../../publication/event';
import { discardStateChanges } from '../../publication/stateChanges/stateChange';
import { outboxPublication } from '../../app/wiring/publication';
import { randomIds, systemClock } from '../../shared/clock';
import { TidemarkError } from '../../shared/errors';
import { orderPlacedEvent } from './events';
import type { PlaceOrderCommand } from './order';
import { createOrdersService, type OrdersService } from './ordersService';

const cmd = (key: string, over: Partial<PlaceOrderCommand> = {}): PlaceOrderCommand => ({
  currency: 'EUR',
  idempotencyKey: key,
  items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9' }],
  ...over,
});

async function errorOf(p: Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TidemarkError) return { code: e.code, message: e.message, details: e.details };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('placeOrder authorisation (PostgreSQL)', () => {
  let env: TestEnv;
  let orders: OrdersService;
  const alice = customerOf('user-alice', 'cust-alice');

  beforeAll(async () => {
    env = await createTestEnv();
    const publication = outboxPublication(env.resources, discardStateChanges);
    orders = createOrdersService({
      db: env.resources.pg,
      publisher: publication.publisher,
      clock: systemClock,
      ids: randomIds,
      limits: { maxItems: 10 },
      publicationState: publication.stateOf,
    });
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  const count = async () => Number((await env.resources.pg('orders').count({ n: '*' }))[0]!.n);
  const rowOf = (orderId: string) => env.resources.pg('orders').where({ order_id: orderId }).first();

  it("places a customer's order for itself, taking customerId from its token when omitted, and records who placed it", async () => {
    const omitted = await orders.placeOrder(cmd('alice-1'), alice);
    expect(omitted.order).toMatchObject({ customerId: 'cust-alice', changedBy: 'user-alice' });
    const named = await orders.placeOrder(cmd('alice-2', { customerId: 'cust-alice' }), alice);
    expect(named.order.customerId).toBe('cust-alice');
    expect(await rowOf(omitted.order.orderId)).toMatchObject({
      customer_id: 'cust-alice',
      changed_by: 'user-alice',
      idempotency_owner: 'user-alice',
      idempotency_key: 'alice-1',
    });
    // The event is the schemaVersion 1 event of the order alone: who placed it is not in it.
    const [ob] = await env.resources.pg('outbox_events').where({ event_id: omitted.eventId }).select('message_value');
    expect(ob.message_value).toBe(toKafkaRecord(orderPlacedEvent({ ...omitted.order, changedBy: null }, 1)).value);
    expect(ob.message_value).not.toContain('user-alice');
  });

  it("refuses an order for another customer (FORBIDDEN) and other roles' orders, writing nothing", async () => {
    const before = await count();
    expect(await errorOf(orders.placeOrder(cmd('alice-3', { customerId: 'cust-bob' }), alice))).toEqual({
      code: 'FORBIDDEN',
      message: 'an order for another customer is outside your scope',
      details: {},
    });
    expect(await errorOf(orders.placeOrder(cmd('t-1', { customerId: 'cust-alice' }), teacherOf('teacher-1', 77)))).toMatchObject({
      code: 'FORBIDDEN',
      message: 'orders writes are not allowed for your role',
    });
    expect(await count()).toBe(before);
  });

  it('requires operators and services to name the customer (VALIDATION_FAILED), and places for anyone when they do', async () => {
    const before = await count();
    for (const p of [TEST_SERVICE, TEST_OPERATOR])
      expect(await errorOf(orders.placeOrder(cmd(`${p.subject}-none`), p))).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { field: 'customerId', reason: 'REQUIRED' },
      });
    expect(await count()).toBe(before);
    const r = await orders.placeOrder(cmd('svc-1', { customerId: 'cust-bob' }), TEST_SERVICE);
    expect(r.order).toMatchObject({ customerId: 'cust-bob', changedBy: 'test-service' });
  });

  it("keeps idempotency keys per caller: another principal's same key places its own order, each retry gets its own first order", async () => {
    const bob = customerOf('user-bob', 'cust-bob');
    const a = await orders.placeOrder(cmd('shared-key'), alice);
    const b = await orders.placeOrder(cmd('shared-key'), bob);
    expect(b).toMatchObject({ replayed: false, order: { customerId: 'cust-bob', changedBy: 'user-bob' } });
    expect(b.order.orderId).not.toBe(a.order.orderId);
    // The same content from a service (for alice) is not a replay of alice's order either.
    const s = await orders.placeOrder(cmd('shared-key', { customerId: 'cust-alice' }), TEST_SERVICE);
    expect(s.replayed).toBe(false);
    expect(s.order.orderId).not.toBe(a.order.orderId);

    expect(await orders.placeOrder(cmd('shared-key'), alice)).toMatchObject({ replayed: true, order: { orderId: a.order.orderId } });
    expect(await orders.placeOrder(cmd('shared-key'), bob)).toMatchObject({ replayed: true, order: { orderId: b.order.orderId } });
    // Different content under one's own key is still a conflict.
    expect(
      await errorOf(orders.placeOrder(cmd('shared-key', { items: [{ sku: 'X', quantity: 1, unitPrice: '1' }] }), alice)),
    ).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    const rows = await env.resources.pg('orders').where({ idempotency_key: 'shared-key' }).orderBy('idempotency_owner');
    expect(rows.map((r: { idempotency_owner: string; order_id: string }) => [r.idempotency_owner, r.order_id])).toEqual([
      ['test-service', s.order.orderId],
      ['user-alice', a.order.orderId],
      ['user-bob', b.order.orderId],
    ]);
  });
});
