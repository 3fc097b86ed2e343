// The orders source erasure on the real PostgreSQL: two customers, orders with a NOT_PUBLISHED fallback
// row, a DEAD_LETTER row, outbox rows (the other strategy), an order the customer placed for itself
// (its id as the placing subject), and the same customer returning after the request. The customer's id
// becomes its pseudonym everywhere; amounts and the other customer stay.
import { randomUUID } from 'node:crypto';
import { toKafkaRecord } from '../../../publication/event';
import { appendOutboxEvents } from '../../../publication/outbox/appendOutboxEvents';
import { publicationRowFor } from '../../../publication/kafkaFirst/publicationRow';
import { upsertNotPublished } from '../../../publication/kafkaFirst/upsertNotPublished';
import { systemClock } from '../../../shared/clock';
import { createTestEnv, type TestEnv } from '../../../../test/support/testEnv';
import { pseudonymOf, type ErasureJob } from '../../contract/erasure';
import { orderPlacedEvent } from '../events';
import { insertOrder } from '../insertOrder';
import type { Order } from '../order';
import { ordersSourceErasure } from './ordersSourceErasure';

const C = `cust-erase-${randomUUID().slice(0, 8)}`;
const D = `cust-keep-${randomUUID().slice(0, 8)}`;

const orderOf = (customerId: string, total: string, createdAt = new Date(Date.now() - 60_000)): Order => ({
  orderId: randomUUID(),
  customerId,
  currency: 'EUR',
  items: [{ sku: 'SKU-1', quantity: 1, unitPrice: total }],
  total,
  itemCount: 1,
  createdAt,
  changedBy: 'test-service',
});

describe('ordersSourceErasure (PostgreSQL)', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  const place = async (o: Order, owner = 'test-service'): Promise<Order> => {
    await insertOrder(env.resources.pg, { ...o, changedBy: owner }, { owner, key: randomUUID() }, 'f'.repeat(64));
    return o;
  };
  const fallback = async (o: Order, status: 'NOT_PUBLISHED' | 'DEAD_LETTER' | 'PUBLISHED', schemaVersion = 1) => {
    await upsertNotPublished(
      env.resources.pg,
      publicationRowFor(orderPlacedEvent(o, schemaVersion), env.resources.topics, 'DIRECT_FALLBACK'),
    );
    await env.resources.pg('event_publications').where({ aggregate_id: o.orderId }).update({ status });
  };
  const naming = async (table: string, customerId: string) =>
    (await env.resources.pg(table).select('message_value')).filter((r: { message_value: string }) => r.message_value.includes(customerId))
      .length;

  it('collects the customer, pseudonymises idempotently, verifies zero; amounts, the other customer and a returning one stay', async () => {
    const pg = env.resources.pg;
    const erasure = ordersSourceErasure({ pg, clock: systemClock });
    expect(erasure.store).toBe('postgres');
    expect(erasure.checkSubject(C)).toBeUndefined();
    for (const bad of ['', '   ', 'x'.repeat(65), 'a\u0000b']) expect(erasure.checkSubject(bad)).toEqual(expect.any(String));

    const c1 = await place(orderOf(C, '10.5000'));
    const c2 = await place(orderOf(C, '20.0000'), C); // placed by the customer itself
    const c3 = await place(orderOf(C, '30.0000'));
    const d1 = await place(orderOf(D, '40.0000'));
    await fallback(c1, 'NOT_PUBLISHED');
    // A schema version 2 event of the order the customer placed itself: changedBy names it too.
    await fallback({ ...c2, changedBy: C, channel: 'web' }, 'DEAD_LETTER', 2);
    await fallback(d1, 'NOT_PUBLISHED');
    await pg.transaction((trx) => appendOutboxEvents(trx, [orderPlacedEvent(c3, 1), orderPlacedEvent(d1, 1)], () => 'orders-topic'));
    // An event whose order row is gone (only the publication names the customer).
    const orphan = orderOf(C, '5.0000');
    await fallback(orphan, 'DEAD_LETTER');

    const ids = await erasure.collect(C);
    expect(ids).toEqual([c1.orderId, c2.orderId, c3.orderId, orphan.orderId].sort());
    const job: ErasureJob = {
      erasureId: randomUUID(),
      kind: 'customer',
      mode: 'pseudonymise',
      subjectId: C,
      domain: 'orders',
      aggregateIds: ids,
      subjectHash: 'ab12'.repeat(16),
      startedAt: new Date(),
    };
    const pseudonym = pseudonymOf(job);
    expect(pseudonym).toMatch(/^anon-[0-9a-f]{24}$/);
    // A returning customer: a new order after the request, with its own fallback row.
    const back = await place(orderOf(C, '7.0000', new Date(Date.now() + 1000)));
    await fallback(back, 'NOT_PUBLISHED');

    const before = await erasure.verify(job);
    expect(before.found).toBeGreaterThan(0);
    expect(before.searched).toEqual(['orders', 'outbox_events', 'event_publications']);

    const t0 = performance.now();
    const first = await erasure.erase(job);
    process.stdout.write(`orders source erase of ${ids.length} orders: ${(performance.now() - t0).toFixed(1)} ms\n`);
    expect(first).toEqual({ affected: expect.any(Number), done: true });
    expect(first.affected).toBeGreaterThanOrEqual(3 + 1 + 1 + 3); // customer_id x3, owner+changed_by, outbox, publications x3
    expect(await erasure.erase(job)).toEqual({ affected: 0, done: true });
    expect((await erasure.verify(job)).found).toBe(0);

    const rows = (await pg('orders').select('order_id', 'customer_id', 'total', 'idempotency_owner', 'changed_by')) as Record<
      string,
      string
    >[];
    const byId = new Map(rows.map((r) => [r.order_id, r]));
    for (const [o, total] of [
      [c1, '10.5000'],
      [c2, '20.0000'],
      [c3, '30.0000'],
    ] as const) {
      expect(byId.get(o.orderId)!.customer_id).toBe(pseudonym);
      expect(byId.get(o.orderId)!.total).toBe(total);
    }
    expect(byId.get(c2.orderId)).toMatchObject({ idempotency_owner: pseudonym, changed_by: pseudonym });
    expect(byId.get(d1.orderId)).toMatchObject({ customer_id: D, total: '40.0000' });
    expect(byId.get(back.orderId)).toMatchObject({ customer_id: C, total: '7.0000' });

    // Publication rows stay (the financial event), naming the pseudonym; their amounts are unchanged.
    const pubs = (await pg('event_publications').whereIn('aggregate_id', [c1.orderId, c2.orderId, orphan.orderId])) as {
      status: string;
      message_value: string;
    }[];
    expect(pubs.map((p) => p.status).sort()).toEqual(['DEAD_LETTER', 'DEAD_LETTER', 'NOT_PUBLISHED']);
    for (const p of pubs) expect(JSON.parse(p.message_value).data).toMatchObject({ customerId: pseudonym });
    const own = (await pg('event_publications').where({ aggregate_id: c2.orderId }).first()) as { message_value: string };
    expect(JSON.parse(own.message_value).data).toMatchObject({ customerId: pseudonym, changedBy: pseudonym, channel: 'web' });
    const outbox = (await pg('outbox_events').where({ aggregate_id: c3.orderId }).first()) as { message_value: string };
    expect(JSON.parse(outbox.message_value).data).toMatchObject({ customerId: pseudonym, total: '30.0000' });
    // Byte for byte the event of the pseudonymised order (only the id changed, nothing re-serialised).
    const kept = (await pg('event_publications').where({ aggregate_id: c1.orderId }).first()) as { message_value: string };
    expect(kept.message_value).toBe(JSON.stringify(JSON.parse(kept.message_value)));
    expect(JSON.parse(kept.message_value)).toEqual(JSON.parse(toKafkaRecord(orderPlacedEvent({ ...c1, customerId: pseudonym }, 1)).value));
    expect(kept.message_value).toBe(toKafkaRecord(orderPlacedEvent({ ...c1, customerId: pseudonym }, 1)).value);
    // Only the returning customer's row still names C; D's rows name D.
    expect(await naming('event_publications', C)).toBe(1);
    expect(await naming('outbox_events', C)).toBe(0);
    expect(await naming('event_publications', D)).toBe(1);
    expect(await naming('outbox_events', D)).toBe(1);
  });
});
