// A domain decoder's compiled fast path must accept exactly what its stepwise zod decoding accepts:
// for every mutation of a valid event below, `decode` (fast path first) and `stepwise` give the same
// row or the same dead-letter reason and detail.
import { toKafkaRecord } from '../../publication/event';
import { fitnessEvent, orderEvent } from '../../../test/support/projectionEvents';
import { fitnessDecoder } from '../fitness/projection/fitnessDecoder';
import { orderDecoder } from '../orders/projection/orderDecoder';

const at = { kafkaPartition: 1, kafkaOffset: '7' };
const fitness = JSON.parse(
  toKafkaRecord(fitnessEvent({ dataId: 900001, detectId: 1, userId: 4, projectId: 3, schoolId: 7, grade: 5, result: '2.310', version: 2 }))
    .value,
);
const order = JSON.parse(toKafkaRecord(orderEvent({ orderId: 'o-1', total: '39.8' })).value);
/** The same events in schema version 2 (eventContract.ts of each domain). */
const fitnessV2 = {
  ...fitness,
  schemaVersion: 2,
  data: { ...fitness.data, changedBy: 'teacher-1', measuredAt: '2026-05-04T09:00:00.000Z' },
};
const orderV2 = { ...order, schemaVersion: 2, data: { ...order.data, changedBy: 'customer-1', channel: 'web' } };

const oddValues: unknown[] = [
  undefined,
  null,
  '',
  'x',
  '12',
  -1,
  0,
  1.5,
  2 ** 53,
  1e300,
  true,
  [],
  {},
  'x'.repeat(65),
  'x'.repeat(201),
  '😀'.repeat(17),
  '😀'.repeat(33),
  '2.3101',
  'EUR',
  'eur',
  '1969-12-31T00:00:00Z',
];

function mutations(event: Record<string, unknown>): unknown[] {
  const out: unknown[] = [event, { ...event, extra: 1 }, { ...event, data: { ...(event.data as object), extra: 1 } }, 'text', 5, null];
  for (const [k, v] of Object.entries(event)) {
    for (const odd of oddValues) out.push({ ...event, [k]: odd });
    if (k !== 'data') continue;
    for (const dk of Object.keys(v as object)) for (const odd of oddValues) out.push({ ...event, data: { ...(v as object), [dk]: odd } });
  }
  const items = (event.data as { items?: Record<string, unknown>[] }).items;
  for (const [k] of Object.entries(items?.[0] ?? {}))
    for (const odd of oddValues) out.push({ ...event, data: { ...(event.data as object), items: [{ ...items![0], [k]: odd }] } });
  return out;
}

const decoders = { fitness: fitnessDecoder, orders: orderDecoder };
const outcome = (r: ReturnType<typeof fitnessDecoder.decode | typeof orderDecoder.decode>) =>
  r.ok ? { row: r.value } : { reason: r.reason, detail: r.detail };

describe('the compiled fast path agrees with the stepwise decoding', () => {
  it.each([
    ['fitness', fitness],
    ['orders', order],
    ['fitness', fitnessV2],
    ['orders', orderV2],
  ] as const)('on %s events and hundreds of mutations of them', (domain, event) => {
    const cases = [...mutations(event), ...mutations(domain === 'fitness' ? order : fitness)];
    // A reader pinned to version 1 (a process not yet upgraded) agrees with itself too.
    for (const json of cases) expect(decoders[domain].decode(json, at, 1, 1)).toEqual(decoders[domain].stepwise(json, at, 1, 1));
    let rows = 0;
    for (const json of cases) {
      const expected = outcome(decoders[domain].stepwise(json, at, 1));
      if ('row' in expected) rows++;
      expect({ json, result: outcome(decoders[domain].decode(json, at, 1)) }).toEqual({ json, result: expected });
    }
    expect(cases.length).toBeGreaterThan(300);
    expect(rows).toBeGreaterThan(3);
  });
});

describe('reading across schema versions', () => {
  it('maps a version-1 event and its version-2 twin with nothing new to the same row', () => {
    const twin = { ...fitness, schemaVersion: 2, data: { ...fitness.data, changedBy: null, measuredAt: null } };
    expect(fitnessDecoder.decode(twin, at, 1)).toEqual(fitnessDecoder.decode(fitness, at, 1));
    const orderTwin = { ...order, schemaVersion: 2, data: { ...order.data, changedBy: null, channel: null } };
    expect(orderDecoder.decode(orderTwin, at, 1)).toEqual(orderDecoder.decode(order, at, 1));
  });

  it('parks a version the reader does not know, with its own reason, and reads it once it does', () => {
    const pinned = fitnessDecoder.decode(fitnessV2, at, 1, 1);
    expect(pinned).toEqual({
      ok: false,
      reason: 'UNSUPPORTED_SCHEMA_VERSION',
      detail: 'schemaVersion 2 is not one this reader knows (1..1)',
    });
    expect(fitnessDecoder.decode(fitnessV2, at, 1, 2).ok).toBe(true);
    expect(orderDecoder.decode({ ...orderV2, schemaVersion: 3 }, at, 1)).toMatchObject({ reason: 'UNSUPPORTED_SCHEMA_VERSION' });
  });

  it('refuses a version-2 event without the fields version 2 requires (a version is what its data is)', () => {
    expect(fitnessDecoder.decode({ ...fitness, schemaVersion: 2 }, at, 1)).toMatchObject({ reason: 'INVALID_DATA' });
    expect(orderDecoder.decode({ ...orderV2, data: { ...orderV2.data, channel: 'fax' } }, at, 1)).toMatchObject({
      ok: false,
      reason: 'INVALID_DATA',
      detail: 'data.channel (invalid_value)',
    });
  });
});
