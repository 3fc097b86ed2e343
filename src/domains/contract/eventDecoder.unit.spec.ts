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
  ] as const)('on %s events and hundreds of mutations of them', (domain, event) => {
    const cases = [...mutations(event), ...mutations(domain === 'fitness' ? order : fitness)];
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
