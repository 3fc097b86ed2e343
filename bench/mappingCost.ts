// What the projector's per-event mapping costs in CPU, without Kafka or ClickHouse: 100,000 fitness
// events (and 20,000 orders) as the relay publishes them, mapped by `mapMessage` (the compiled ajv
// check, then the row) and by the stepwise zod decoding the projector falls back to for events that
// fail the check (what every event took before 2026-12-01 evening). Alternating rounds, process CPU.
// Run: npx tsx bench/mappingCost.ts
import { parseValue } from '../src/domains/contract/envelope';
import { projectionOf } from '../src/domains/projections';
import { mapMessage, type ConsumedMessage } from '../src/projections/mapMessage';
import { toKafkaRecord, type Domain } from '../src/publication/event';
import { fitnessEvent, orderEvent } from '../test/support/projectionEvents';

const at = { kafkaPartition: 0, kafkaOffset: '0' };

function stepwise(m: ConsumedMessage, domain: Domain): boolean {
  const json = parseValue(m.value);
  return json.ok && projectionOf(domain).decoder.stepwise(json.value, at, 1).ok;
}

const compiled = (m: ConsumedMessage, domain: Domain): boolean => mapMessage(m, domain, 1).kind === 'row';

function messages(domain: Domain, n: number): ConsumedMessage[] {
  return Array.from({ length: n }, (_, i) => {
    const event =
      domain === 'fitness'
        ? fitnessEvent({
            dataId: 1000 + i,
            detectId: i,
            userId: 5000 + (i % 977),
            projectId: 3,
            schoolId: 10 + (i % 50),
            grade: 5,
            result: '12.345',
            version: 1 + (i % 3),
          })
        : orderEvent({ orderId: `o-${i}`, total: '39.8' });
    return { topic: 't', partition: i % 6, offset: String(i), key: null, value: Buffer.from(toKafkaRecord(event).value) };
  });
}

function cpuMicrosPerEvent(ms: ConsumedMessage[], domain: Domain, map: typeof compiled): number {
  const start = process.cpuUsage();
  for (const m of ms) if (!map(m, domain)) throw new Error('an event did not map');
  const used = process.cpuUsage(start);
  return (used.user + used.system) / ms.length;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const [domain, n] of [
  ['fitness', 100_000],
  ['orders', 20_000],
] as const) {
  const ms = messages(domain, n);
  const sides = { compiled: [] as number[], stepwise: [] as number[] };
  for (let round = 0; round < 7; round++) {
    sides.compiled.push(cpuMicrosPerEvent(ms, domain, compiled));
    sides.stepwise.push(cpuMicrosPerEvent(ms, domain, stepwise));
  }
  // The first round of each side warms the JIT; the median of the other six is reported.
  const [c, s] = [median(sides.compiled.slice(1)), median(sides.stepwise.slice(1))];
  console.log(`${domain}: ${n} events; compiled check ${c.toFixed(1)} CPU-us/event, stepwise zod ${s.toFixed(1)} (${(s / c).toFixed(2)}x)`);
}
