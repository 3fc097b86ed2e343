// The outbox row: the exact Kafka record of an event (toKafkaRecord) plus its delivery state. The
// relay re-sends message_key/message_value/headers byte for byte, so a retry or replay is the very
// same event with its original version and eventId.
import { topicOf, type Topics } from '../../infra/kafka/fromKafka';
import { toKafkaRecord, type DomainEvent } from '../event';
import { currentTraceparent } from '../../shared/tracing';

export const OUTBOX_TABLE = 'outbox_events';

export type OutboxStatus = 'NEW' | 'PROCESSING' | 'SENT' | 'FAILED' | 'PARKED';
export const UNSENT_STATUSES: readonly OutboxStatus[] = ['NEW', 'PROCESSING', 'FAILED'];

export interface OutboxInsert {
  event_id: string;
  domain: string;
  aggregate_id: string;
  version: number;
  topic: string;
  message_key: string;
  message_value: string;
  headers: string;
  status: 'NEW';
  attempts: 0;
  /** The write's trace (W3C traceparent), continued by the relay; null when tracing is off. */
  traceparent: string | null;
}

export type TopicOf = (event: DomainEvent) => string;

/** Domain -> topic, from the agreed topic names. */
export function topicByDomain(topics: Topics): TopicOf {
  return (e) => topicOf(topics, e.domain);
}

export function outboxInsertOf(event: DomainEvent, topic: string): OutboxInsert {
  const record = toKafkaRecord(event);
  return {
    event_id: event.eventId,
    domain: event.domain,
    aggregate_id: event.aggregateId,
    version: event.version,
    topic,
    message_key: record.key,
    message_value: record.value,
    headers: JSON.stringify(record.headers),
    status: 'NEW',
    attempts: 0,
    traceparent: currentTraceparent() ?? null,
  };
}
