// The ClickHouse rows the projector would write for these events (through its own mapping), for read
// model tests that insert projections directly instead of running a projector.
import { mapMessage } from '../../src/projections/mapMessage';
import type { FitnessRow } from '../../src/domains/fitness/projection/fitnessResultsTable';
import type { OrderRow } from '../../src/domains/orders/projection/ordersTable';
import { toKafkaRecord, type DomainEvent } from '../../src/publication/event';

export function projectedRows<T extends FitnessRow | OrderRow>(events: DomainEvent[]): T[] {
  return events.map((e, i) => {
    const value = Buffer.from(toKafkaRecord(e).value);
    const m = mapMessage({ topic: 't', partition: 0, offset: String(i), key: null, value }, e.domain, Date.now());
    if (m.kind !== 'row') throw new Error(`unmappable test event: ${m.kind === 'dead' ? m.deadLetter.reason : 'tombstone'}`);
    return m.projected.row as T;
  });
}
