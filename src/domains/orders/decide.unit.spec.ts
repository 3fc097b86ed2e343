// Pure order decisions: validation with typed reasons, exact canonical money, the stable event.
import { decidePlaceOrder } from './decide';
import { formatMoney, parseMoney } from './decimal';
import { orderPlacedEvent, orderPlacedEventId } from './events';
import type { PlaceOrderCommand } from './order';
import { toKafkaRecord } from '../../publication/event';

const now = new Date('2026-03-04T05:06:07.891Z');
const orderId = '3f6c1f9e-8a51-4f53-9d5c-2a7c0b1e4d10';
const ctx = { orderId, now, limits: { maxItems: 5 }, changedBy: 'svc-1' };
const base: PlaceOrderCommand = {
  customerId: 'cust-1',
  currency: 'EUR',
  idempotencyKey: 'k1',
  items: [{ sku: 'A', quantity: 2, unitPrice: '19.9' }],
};

describe('money', () => {
  it('parses plain decimals exactly and prints exactly 4 decimals', () => {
    expect(parseMoney('19.9')).toEqual({ ok: true, units: 199000n });
    expect(formatMoney(199000n)).toBe('19.9000');
    expect(formatMoney(-5n)).toBe('-0.0005');
    expect(parseMoney('1.23450')).toEqual({ ok: true, units: 12345n });
    expect(parseMoney('1.23456')).toEqual({ ok: false, reason: 'scale' });
    expect(parseMoney('1e3')).toEqual({ ok: false, reason: 'format' });
    expect(parseMoney('01.5')).toEqual({ ok: false, reason: 'format' });
  });
});

describe('decidePlaceOrder', () => {
  it('computes an exact total, the unit count and canonical prices', () => {
    const d = decidePlaceOrder(
      {
        ...base,
        items: [
          { sku: 'A', quantity: 1, unitPrice: '0.1' },
          { sku: 'B', quantity: 2, unitPrice: '0.2' },
          { sku: 'C', quantity: 3, unitPrice: '0' },
        ],
      },
      ctx,
    );
    expect(d.order).toMatchObject({ orderId, total: '0.5000', itemCount: 6, createdAt: now });
    expect(d.order.items.map((i) => i.unitPrice)).toEqual(['0.1000', '0.2000', '0.0000']);
  });

  it('fingerprints the request by its meaning, not its formatting or its key', () => {
    const a = decidePlaceOrder(base, ctx).requestHash;
    expect(
      decidePlaceOrder({ ...base, idempotencyKey: 'other', items: [{ sku: 'A', quantity: 2, unitPrice: '19.90' }] }, ctx).requestHash,
    ).toBe(a);
    expect(decidePlaceOrder({ ...base, items: [{ sku: 'A', quantity: 3, unitPrice: '19.9' }] }, ctx).requestHash).not.toBe(a);
  });

  it.each([
    [{ items: [] }, 'items', 'EMPTY_ITEMS'],
    [{ items: Array.from({ length: 6 }, () => ({ sku: 'A', quantity: 1, unitPrice: '1' })) }, 'items', 'TOO_MANY_ITEMS'],
    [{ items: [{ sku: 'A', quantity: 0, unitPrice: '1' }] }, 'items[0].quantity', 'NON_POSITIVE_QUANTITY'],
    [{ items: [{ sku: 'A', quantity: -3, unitPrice: '1' }] }, 'items[0].quantity', 'NON_POSITIVE_QUANTITY'],
    [{ items: [{ sku: 'A', quantity: 1.5, unitPrice: '1' }] }, 'items[0].quantity', 'NON_POSITIVE_QUANTITY'],
    [{ items: [{ sku: 'A', quantity: 100001, unitPrice: '1' }] }, 'items[0].quantity', 'TOO_LARGE'],
    [{ items: [{ sku: 'A', quantity: 1, unitPrice: '-1' }] }, 'items[0].unitPrice', 'NEGATIVE_PRICE'],
    [{ items: [{ sku: 'A', quantity: 1, unitPrice: '1.00001' }] }, 'items[0].unitPrice', 'TOO_MANY_DECIMALS'],
    [{ items: [{ sku: 'A', quantity: 1, unitPrice: 'abc' }] }, 'items[0].unitPrice', 'INVALID_FORMAT'],
    [{ items: [{ sku: 'A', quantity: 1, unitPrice: '1000000000' }] }, 'items[0].unitPrice', 'TOO_LARGE'],
    [{ items: [{ sku: '', quantity: 1, unitPrice: '1' }] }, 'items[0].sku', 'REQUIRED'],
    [{ items: [{ sku: 'x'.repeat(65), quantity: 1, unitPrice: '1' }] }, 'items[0].sku', 'TOO_LARGE'],
    [{ items: [{ sku: 'a\nb', quantity: 1, unitPrice: '1' }] }, 'items[0].sku', 'INVALID_FORMAT'],
    [{ currency: 'eur' }, 'currency', 'UNKNOWN_CURRENCY'],
    [{ currency: 'XXX' }, 'currency', 'UNKNOWN_CURRENCY'],
    [{ customerId: '' }, 'customerId', 'REQUIRED'],
    [{ customerId: 'c'.repeat(65) }, 'customerId', 'TOO_LARGE'],
    [{ idempotencyKey: 'k'.repeat(129) }, 'idempotencyKey', 'TOO_LARGE'],
  ] as [Partial<PlaceOrderCommand>, string, string][])('rejects %j as %s %s', (over, field, reason) => {
    expect(() => decidePlaceOrder({ ...base, ...over }, ctx)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field, reason } }),
    );
  });

  it('rejects a total beyond what Decimal(18,4) holds', () => {
    const items = Array.from({ length: 5 }, () => ({ sku: 'A', quantity: 100000, unitPrice: '999999999.9999' }));
    expect(() => decidePlaceOrder({ ...base, items }, { ...ctx, limits: { maxItems: 5 } })).toThrow(
      expect.objectContaining({ details: { field: 'items', reason: 'TOO_LARGE' } }),
    );
  });
});

describe('OrderPlaced', () => {
  it('is a full snapshot with a stable id, key and bytes', () => {
    const { order } = decidePlaceOrder(base, ctx);
    const e = orderPlacedEvent(order, 1);
    expect(e).toMatchObject({
      eventId: orderPlacedEventId(orderId),
      domain: 'orders',
      type: 'OrderPlaced',
      aggregateId: orderId,
      version: 1,
      schemaVersion: 1,
      isDeleted: false,
      shard: 0,
    });
    expect(e.eventId).toBe(`order-placed:${orderId}:v1`);
    expect(e.data).toEqual({
      orderId,
      customerId: 'cust-1',
      currency: 'EUR',
      items: [{ sku: 'A', quantity: 2, unitPrice: '19.9000' }],
      total: '39.8000',
      itemCount: 2,
      createdAt: '2026-03-04T05:06:07.891Z',
    });
    // Rebuilding from the same order gives the same bytes (what the reconciler relies on), whoever
    // placed it: changedBy stays in the store (a row read back has it, or null for older orders).
    expect(order.changedBy).toBe('svc-1');
    expect(toKafkaRecord(orderPlacedEvent({ ...order, items: order.items.map((i) => ({ ...i })) }, 1))).toEqual(toKafkaRecord(e));
    expect(toKafkaRecord(orderPlacedEvent({ ...order, changedBy: null }, 1))).toEqual(toKafkaRecord(e));
    expect(toKafkaRecord(e).key).toBe(orderId);
  });
});
