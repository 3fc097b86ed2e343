// The committed contracts describe what the producers really write: each version's file accepts the
// message value the event builders produce in that version (and only for its own domain, type and
// schema version), and an old version's file accepts a newer event (readers ignore unknown fields).
import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fitnessEvent } from '../../domains/fitness/events';
import { orderPlacedEvent } from '../../domains/orders/events';
import { toKafkaRecord, type DomainEvent } from '../../publication/event';
import { contractFile } from './contractFiles';

const ajv = new Ajv2020({ strict: true });
const dir = join(__dirname, '..', '..', '..', 'schema', 'events');
const validator = (domain: string, type: string, v: number) =>
  ajv.getSchema(`urn:tidemark:events:${domain}:${type}:v${v}`) ??
  ajv.compile(JSON.parse(readFileSync(join(dir, contractFile(domain, type, v)), 'utf8')) as object);
const value = (e: DomainEvent) => JSON.parse(toKafkaRecord(e).value) as Record<string, unknown>;

const result = {
  dataId: 900001,
  detectId: 10001,
  userId: 4,
  projectId: 3,
  schoolId: 77,
  grade: 5,
  result: '2.310',
  unit: 'm',
  version: 4,
  isDeleted: false,
  createdAt: new Date('2026-03-01T08:00:00Z'),
  updatedAt: new Date('2026-03-01T09:00:00Z'),
  shard: 1,
  changedBy: 'teacher-1',
  measuredAt: new Date('2026-02-28T10:00:00Z'),
};
const order = {
  orderId: '3f0c8a1e-0000-4000-8000-000000000001',
  customerId: 'cust-1',
  currency: 'EUR',
  items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9000' }],
  total: '39.8000',
  itemCount: 2,
  createdAt: new Date('2026-03-01T08:00:00Z'),
  changedBy: 'clerk-1',
  channel: 'web',
};

it.each([1, 2])('fitness events of schema version %i match their contracts', (v) => {
  for (const type of ['FitnessResultRecorded', 'FitnessResultCorrected'] as const) {
    const check = validator('fitness', type, v);
    expect(check(value(fitnessEvent(type, result, v)))).toBe(true);
    expect(check(value(fitnessEvent(type, result, 3 - v)))).toBe(false);
  }
  const deleted = fitnessEvent('FitnessResultDeleted', { ...result, version: 5, isDeleted: true }, v);
  expect(validator('fitness', 'FitnessResultDeleted', v)(value(deleted))).toBe(true);
  expect(validator('fitness', 'FitnessResultRecorded', v)(value(deleted))).toBe(false);
});

it.each([1, 2])('OrderPlaced of schema version %i matches its contract', (v) => {
  expect(validator('orders', 'OrderPlaced', v)(value(orderPlacedEvent(order, v)))).toBe(true);
});

it("an old version's contract accepts a newer event's data: only the schemaVersion constant tells them apart", () => {
  const v2 = value(orderPlacedEvent(order, 2));
  const check = validator('orders', 'OrderPlaced', 1);
  expect(check(v2)).toBe(false);
  expect(check({ ...v2, schemaVersion: 1 })).toBe(true);
  expect(check({ ...v2, schemaVersion: 1, data: { ...(v2.data as object), currency: 'euro' } })).toBe(false);
});
