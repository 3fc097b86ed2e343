// The projector's compiled fast path must accept exactly what the stepwise zod decoding accepts: for
// every mutation of a valid event below, mapMessage (fast path first) and the stepwise decoding give
// the same row or the same dead-letter reason and detail.
import { toKafkaRecord } from '../../publication/event';
import { fitnessEvent, orderEvent } from '../../../test/support/projectionEvents';
import { mapFitnessEvent } from '../fitness/mapFitnessEvent';
import { mapMessage } from '../mapMessage';
import { mapOrderEvent } from '../orders/mapOrderEvent';
import { checkEnvelope, parseValue } from './envelope';

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

function stepwise(json: unknown, domain: 'fitness' | 'orders') {
  const e = checkEnvelope(json, domain);
  if (!e.ok) return { reason: e.reason, detail: e.detail };
  const r = domain === 'fitness' ? mapFitnessEvent(e.value, at, 1) : mapOrderEvent(e.value, at, 1);
  return r.ok ? { row: r.value } : { reason: r.reason, detail: r.detail };
}

function viaMapMessage(json: unknown, domain: 'fitness' | 'orders') {
  const value = json === undefined ? null : Buffer.from(JSON.stringify(json));
  expect(parseValue(value).ok).toBe(true);
  const m = mapMessage({ topic: 't', partition: 1, offset: '7', key: null, value }, domain, 1);
  return m.kind === 'row' ? { row: m.projected.row } : { reason: m.deadLetter.reason, detail: m.deadLetter.detail };
}

describe('the compiled fast path agrees with the stepwise decoding', () => {
  it.each([
    ['fitness', fitness],
    ['orders', order],
  ] as const)('on %s events and hundreds of mutations of them', (domain, event) => {
    const cases = [...mutations(event), ...mutations(domain === 'fitness' ? order : fitness)];
    let rows = 0;
    for (const json of cases) {
      const expected = stepwise(json, domain);
      if ('row' in expected) rows++;
      expect({ json, result: viaMapMessage(json, domain) }).toEqual({ json, result: expected });
    }
    expect(cases.length).toBeGreaterThan(300);
    expect(rows).toBeGreaterThan(3);
  });
});
