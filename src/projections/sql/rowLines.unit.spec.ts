import { hostileStrings } from '../../../test/support/hostile';
import { FITNESS_RESULTS, type FitnessRow } from '../../domains/fitness/projection/fitnessResultsTable';
import { ORDERS, type OrderRow } from '../../domains/orders/projection/ordersTable';
import { jsonLine, uint64Text } from './insertJsonEachRow';
import { rowLine } from './insertRows';

const fitnessLine = (r: FitnessRow) => rowLine(FITNESS_RESULTS, r);
const orderLine = (r: OrderRow) => rowLine(ORDERS, r);

const fitness: FitnessRow = {
  dataId: 900001,
  detectId: 1,
  userId: 2,
  projectId: 3,
  schoolId: 4,
  grade: 5,
  result: '2.310',
  unit: 'm',
  version: 2,
  isDeleted: false,
  createdAtMs: Date.parse('2026-03-01T08:00:00.123Z'),
  sourceCommitMs: Date.parse('2026-03-01T08:01:00.456Z'),
  ingestedAtMs: 0,
  eventId: 'e',
  shard: 1,
  measuredAtMs: Date.parse('2026-03-01T07:30:00.000Z'),
  changedBy: 'teacher-1',
  kafkaPartition: 0,
  kafkaOffset: '18446744073709551615',
};
const order: OrderRow = {
  orderId: 'o',
  customerId: 'c',
  currency: 'EUR',
  total: '39.8000',
  itemCount: 2,
  items: [{ sku: 's', quantity: 2, unitPrice: '19.9000' }],
  version: 1,
  isDeleted: false,
  createdAtMs: 0,
  sourceCommitMs: 0,
  ingestedAtMs: 0,
  eventId: 'e',
  kafkaPartition: 0,
  kafkaOffset: '7',
  changedBy: '',
  channel: 'web',
};

describe('JSONEachRow lines the projector inserts', () => {
  it('writes every column, decimals and offsets as exact JSON numbers, times as UTC DateTime text', () => {
    const line = fitnessLine(fitness);
    expect(line).toContain('"result":2.310');
    expect(line).toContain('"kafka_offset":18446744073709551615');
    const parsed = JSON.parse(line);
    expect(parsed).toMatchObject({
      data_id: 900001,
      is_deleted: 0,
      created_at: '2026-03-01 08:00:00',
      created_at_ms: fitness.createdAtMs,
      source_commit_at: '2026-03-01 08:01:00',
    });
    expect(Object.keys(parsed)).toHaveLength(22);
    expect(parsed).toMatchObject({ measured_at_ms: fitness.measuredAtMs, changed_by: 'teacher-1' });
    expect(orderLine(order)).toContain('"total":39.8000,');
    expect(orderLine(order)).toContain('"item_unit_prices":[19.9000],');
    expect(Object.keys(JSON.parse(orderLine(order)))).toEqual(ORDERS.columns.map((c) => c.name));
  });

  it.each(hostileStrings)('keeps the string %j a JSON string value', (s) => {
    const line = fitnessLine({ ...fitness, unit: s, eventId: s });
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toMatchObject({ unit: s, event_id: s });
    expect(JSON.parse(orderLine({ ...order, customerId: s, items: [{ sku: s, quantity: 1, unitPrice: '1.0000' }] }))).toMatchObject({
      customer_id: s,
      item_skus: [s],
    });
  });

  it('refuses to write anything but validated numbers in raw (number) position', () => {
    expect(() => fitnessLine({ ...fitness, result: '2.31,"x":1' })).toThrow(TypeError);
    expect(() => orderLine({ ...order, total: '1e9' })).toThrow(TypeError);
    expect(() => uint64Text('1,"x":2')).toThrow(TypeError);
    expect(jsonLine({ 'a"b': 1 })).toBe('{"a\\"b":1}');
  });
});
