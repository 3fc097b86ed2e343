import { toKafkaRecord } from '../publication/event';
import { fitnessEvent, orderEvent } from '../../test/support/projectionEvents';
import { fitnessProjection } from '../domains/fitness/projection/fitnessProjection';
import { ordersProjection } from '../domains/orders/projection/ordersProjection';
import { mapMessage, mapMessageReading, type ConsumedMessage } from './mapMessage';

const at = (value: string | null, topic = 't.fitness-results'): ConsumedMessage => ({
  topic,
  partition: 2,
  offset: '41',
  key: Buffer.from('k'),
  value: value === null ? null : Buffer.from(value),
  headers: { eventId: Buffer.from('e-1') },
});
const base = { dataId: 900001, detectId: 10001, userId: 4, projectId: 3, schoolId: 7, grade: 5, result: '2.310', version: 2 };
const fitnessJson = (over: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => {
  const env = JSON.parse(toKafkaRecord(fitnessEvent(base)).value);
  return JSON.stringify({ ...env, ...over, data: { ...env.data, ...data } });
};

describe('mapping a Kafka message to its read-model row', () => {
  it('maps a fitness correction with its own version, exact result and source commit time', () => {
    const m = mapMessage(at(fitnessJson()), 'fitness', 1234);
    expect(m).toEqual({
      kind: 'row',
      projected: {
        projection: fitnessProjection,
        row: expect.objectContaining({
          dataId: 900001,
          version: 2,
          result: '2.310',
          isDeleted: false,
          shard: 1,
          ingestedAtMs: 1234,
          kafkaPartition: 2,
          kafkaOffset: '41',
          eventId: 'fitness-result-900001-v2',
        }),
      },
    });
    const row = (m as { projected: { row: { sourceCommitMs: number } } }).projected.row;
    expect(row.sourceCommitMs).toBe(Date.parse('2026-03-01T08:01:00.000Z'));
  });

  it('canonicalises a shorter decimal and keeps a tombstone as a row with is_deleted', () => {
    const short = mapMessage(at(fitnessJson({}, { result: '2.31' })), 'fitness', 1);
    expect(short.kind === 'row' && short.projected.row).toMatchObject({ result: '2.310' });
    const del = mapMessage(at(toKafkaRecord(fitnessEvent({ ...base, version: 3, isDeleted: true })).value), 'fitness', 1);
    expect(del.kind === 'row' && del.projected.row).toMatchObject({ isDeleted: true, version: 3, result: '2.310' });
  });

  it('maps an order with items and exact money', () => {
    const m = mapMessage(at(toKafkaRecord(orderEvent({ orderId: 'o-1', total: '39.8' })).value, 't.orders'), 'orders', 5);
    expect(m.kind === 'row' && m.projected).toMatchObject({
      projection: ordersProjection,
      row: {
        orderId: 'o-1',
        total: '39.8000',
        currency: 'EUR',
        itemCount: 2,
        items: [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9000' }],
        version: 1,
      },
    });
  });

  it.each([
    ['an empty value', '', 'EMPTY_MESSAGE'],
    ['not JSON', '{nope', 'MALFORMED_JSON'],
    ['no envelope', '{"hello":1}', 'INVALID_ENVELOPE'],
    ['a future schema', fitnessJson({ schemaVersion: 3 }), 'UNSUPPORTED_SCHEMA_VERSION'],
    ['an order on the fitness topic', toKafkaRecord(orderEvent({ orderId: 'x' })).value, 'WRONG_TOPIC'],
    ['an unknown type', fitnessJson({ type: 'FitnessResultExploded' }), 'UNKNOWN_EVENT_TYPE'],
    ['a result that needs rounding', fitnessJson({}, { result: '2.3101' }), 'INVALID_DATA'],
    ['a float result', fitnessJson({}, { result: 2.31 }), 'INVALID_DATA'],
    ['an unstorable time', fitnessJson({}, { updatedAt: '1969-12-31T00:00:00Z' }), 'INVALID_DATA'],
    ['a negative id', fitnessJson({}, { userId: -1 }), 'INVALID_DATA'],
    ['versions that disagree', fitnessJson({ version: 3 }), 'INCONSISTENT_EVENT'],
    ['an id that disagrees', fitnessJson({ aggregateId: '5' }), 'INCONSISTENT_EVENT'],
  ])('dead-letters %s with a reason and the original bytes', (_what, value, reason) => {
    const m = mapMessage(at(value as string | null), 'fitness', 1);
    expect(m.kind).toBe('dead');
    if (m.kind !== 'dead') return;
    expect(m.deadLetter).toMatchObject({
      reason,
      sourceTopic: 't.fitness-results',
      sourcePartition: 2,
      sourceOffset: '41',
      domain: 'fitness',
    });
    expect(m.deadLetter.value?.toString() ?? null).toBe(value);
    expect(m.deadLetter.headers.eventId).toEqual(Buffer.from('e-1'));
  });

  it('skips a tombstone (no value: an erasure or its roll marker) without a dead letter', () => {
    expect(mapMessage(at(null), 'fitness', 1)).toEqual({ kind: 'tombstone' });
    expect(mapMessage({ ...at(null, 't.orders'), key: Buffer.from('erasure-roll:e-1') }, 'orders', 1)).toEqual({ kind: 'tombstone' });
  });

  it('never copies payload values into the dead-letter detail', () => {
    const secret = "'; DROP TABLE fitness_results; -- secret-value";
    const m = mapMessage(at(fitnessJson({}, { unit: 5, result: secret })), 'fitness', 1);
    expect(m.kind === 'dead' && m.deadLetter.detail).toMatch(/data\.unit/);
    expect(m.kind === 'dead' && m.deadLetter.detail).not.toContain('secret');
  });

  it('parks a version-2 event at a reader capped at 1 (EVENT_SCHEMA_VERSION_CAP) and maps it at one that reads 2', () => {
    const v2 = fitnessJson({ schemaVersion: 2 }, { changedBy: 'teacher-1', measuredAt: null });
    const capped = mapMessageReading({ fitness: 1, orders: 1 })(at(v2), 'fitness', 1);
    expect(capped.kind === 'dead' && capped.deadLetter.reason).toBe('UNSUPPORTED_SCHEMA_VERSION');
    expect(mapMessageReading({ fitness: 2, orders: 2 })(at(v2), 'fitness', 1).kind).toBe('row');
    expect(mapMessage(at(v2), 'fitness', 1).kind).toBe('row');
  });
});
