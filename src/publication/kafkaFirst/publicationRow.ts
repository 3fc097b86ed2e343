// An event_publications row as the kafka-first code reads and writes it. The stored message is the
// exact Kafka record of toKafkaRecord(event): the relay re-sends those bytes unchanged, so a fallback
// or a rebuilt row carries the same eventId, key and value as the direct attempt did.
import { topicOf, type Topics } from '../../infra/kafka/fromKafka';
import { toKafkaRecord, type Domain, type DomainEvent, type KafkaRecord } from '../event';
import type { DirectOutcome } from './metrics';
import { currentTraceparent } from '../../shared/tracing';

export type PublicationStatus = 'NOT_PUBLISHED' | 'PUBLISHED' | 'DEAD_LETTER';
export const PUBLICATION_STATUSES: readonly PublicationStatus[] = ['NOT_PUBLISHED', 'PUBLISHED', 'DEAD_LETTER'];

/** Why the row exists: the direct attempts failed, or the reconciler found the event missing. */
export type PublicationSource = 'DIRECT_FALLBACK' | 'RECONCILER';

export interface NewPublicationRow {
  eventId: string;
  domain: Domain;
  aggregateId: string;
  version: number;
  topic: string;
  record: KafkaRecord;
  source: PublicationSource;
  directAttempts: number;
  /**
   * 'timeout' when any direct attempt timed out (the event may already be in Kafka), 'circuit_open' when
   * no attempt was made because the cluster was known to be unreachable.
   */
  directResult: DirectOutcome | null;
  /** The write's trace (W3C traceparent), continued by the relay; null when tracing is off. */
  traceparent: string | null;
}

export function topicForDomain(topics: Topics, domain: Domain): string {
  return topicOf(topics, domain);
}

export function publicationRowFor(
  event: DomainEvent,
  topics: Topics,
  source: PublicationSource,
  direct: { attempts: number; result: DirectOutcome | null } = { attempts: 0, result: null },
): NewPublicationRow {
  return {
    eventId: event.eventId,
    domain: event.domain,
    aggregateId: event.aggregateId,
    version: event.version,
    topic: topicForDomain(topics, event.domain),
    record: toKafkaRecord(event),
    source,
    directAttempts: direct.attempts,
    directResult: direct.result,
    traceparent: currentTraceparent() ?? null,
  };
}
