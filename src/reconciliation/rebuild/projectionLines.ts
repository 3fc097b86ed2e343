// A rebuild writes the authoritative state through the projector's own transformation: the event the
// write path would publish (toEnvelope) goes through the projector's mapper (mapFitnessEvent /
// mapOrderEvent) and its row serialiser (fitnessLine / orderLine). A fixed mapping is therefore what
// rebuilds the table; there is no second implementation of it here. Rebuilt rows carry no Kafka
// position (partition 0, offset 0): they did not come from the log.
import { toEnvelope, type DomainEvent } from '../../publication/event';
import { mapFitnessEvent } from '../../projections/fitness/mapFitnessEvent';
import { mapOrderEvent } from '../../projections/orders/mapOrderEvent';
import { fitnessLine } from '../../projections/sql/insertFitnessResults';
import { orderLine } from '../../projections/sql/insertOrders';
import { TidemarkError } from '../../shared/errors';
import type { CellValue } from '../canonical/canonical';

const NO_KAFKA_POSITION = { kafkaPartition: 0, kafkaOffset: '0' };

export function projectionLineOf(event: DomainEvent, ingestedAtMs: number): string {
  const envelope = toEnvelope(event);
  const mapped =
    event.domain === 'fitness'
      ? mapFitnessEvent(envelope, NO_KAFKA_POSITION, ingestedAtMs)
      : mapOrderEvent(envelope, NO_KAFKA_POSITION, ingestedAtMs);
  if (!mapped.ok)
    throw new TidemarkError(
      'INTERNAL',
      `the projector rejects the authoritative state of ${event.domain} ${event.aggregateId} (${mapped.reason})`,
      { retriable: false },
    );
  return event.domain === 'fitness'
    ? fitnessLine(mapped.value as Parameters<typeof fitnessLine>[0])
    : orderLine(mapped.value as Parameters<typeof orderLine>[0]);
}

/** The canonical field values of an event (its data, with the envelope's version and deletion flag). */
export function canonicalValuesOf(event: DomainEvent): Record<string, CellValue> {
  return { ...(event.data as Record<string, CellValue>), version: event.version, isDeleted: event.isDeleted };
}
