// A rebuild writes the authoritative state through the projector's own transformation: the event the
// write path would publish (toEnvelope) goes through the domain's decoder (the projector's) and the
// row serialiser derived from the domain's table spec (insertRows.ts). A fixed mapping is therefore
// what rebuilds the table; there is no second implementation of it here. Rebuilt rows carry no Kafka
// position (partition 0, offset 0): they did not come from the log.
import { projectionOf } from '../../domains/projections';
import { rowLine } from '../../projections/sql/insertRows';
import { toEnvelope, type DomainEvent } from '../../publication/event';
import { TidemarkError } from '../../shared/errors';
import type { CellValue } from '../../domains/contract/canonical';

const NO_KAFKA_POSITION = { kafkaPartition: 0, kafkaOffset: '0' };

export function projectionLineOf(event: DomainEvent, ingestedAtMs: number): string {
  const { decoder, table } = projectionOf(event.domain);
  const mapped = decoder.decode(toEnvelope(event), NO_KAFKA_POSITION, ingestedAtMs);
  if (!mapped.ok)
    throw new TidemarkError(
      'INTERNAL',
      `the projector rejects the authoritative state of ${event.domain} ${event.aggregateId} (${mapped.reason})`,
      { retriable: false },
    );
  return rowLine(table, mapped.value);
}

/** The canonical field values of an event (its data, with the envelope's version and deletion flag). */
export function canonicalValuesOf(event: DomainEvent): Record<string, CellValue> {
  return { ...(event.data as Record<string, CellValue>), version: event.version, isDeleted: event.isDeleted };
}
