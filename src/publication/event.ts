// The event every domain publishes: a full state snapshot, never a delta. Its eventId is stable per
// (aggregate, version), so retries, relays and repairs re-send the very same event; consumers
// deduplicate by (aggregateId, version). Kafka key = aggregateId keeps one aggregate's versions in
// one partition, in order.
import type { Domain } from '../shared/domain';

export type { Domain } from '../shared/domain';

export interface DomainEvent<P extends Record<string, unknown> = Record<string, unknown>> {
  eventId: string;
  domain: Domain;
  /** e.g. FitnessResultRecorded, FitnessResultCorrected, FitnessResultDeleted, OrderPlaced */
  type: string;
  aggregateId: string;
  /** The business record's own version; never invented by delivery or repair. */
  version: number;
  schemaVersion: number;
  isDeleted: boolean;
  /** Source commit time (the authoritative store's clock). */
  occurredAt: Date;
  /** Source shard index (0 for unsharded stores). */
  shard: number;
  /** The complete state of the aggregate at this version. */
  data: P;
}

/** Wire format (JSON value of the Kafka message). Dates travel as ISO-8601 UTC strings. */
export interface EventEnvelope {
  eventId: string;
  domain: Domain;
  type: string;
  aggregateId: string;
  version: number;
  schemaVersion: number;
  isDeleted: boolean;
  occurredAt: string;
  shard: number;
  data: Record<string, unknown>;
}

export interface KafkaRecord {
  key: string;
  value: string;
  headers: Record<string, string>;
}

export function toEnvelope(e: DomainEvent): EventEnvelope {
  return {
    eventId: e.eventId,
    domain: e.domain,
    type: e.type,
    aggregateId: e.aggregateId,
    version: e.version,
    schemaVersion: e.schemaVersion,
    isDeleted: e.isDeleted,
    occurredAt: e.occurredAt.toISOString(),
    shard: e.shard,
    data: e.data,
  };
}

/** The exact Kafka message for an event; relays store and re-send these bytes unchanged. */
export function toKafkaRecord(e: DomainEvent): KafkaRecord {
  return {
    key: e.aggregateId,
    value: JSON.stringify(toEnvelope(e)),
    headers: { eventId: e.eventId, type: e.type, schemaVersion: String(e.schemaVersion), domain: e.domain },
  };
}
