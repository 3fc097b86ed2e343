// Kafka-first metrics. Labels are bounded: domain (fitness | orders), store (postgres | mysql-shard-N),
// and fixed result names. Nothing per event or per order.
import { counter, gauge, type Registry } from '../../metrics/registry';

export type DirectAttemptResult = 'success' | 'timeout' | 'failure';
/** Why the direct path did not deliver: its attempts failed or timed out, or the circuit was open (none made). */
export type DirectOutcome = 'timeout' | 'failure' | 'circuit_open';
export type FallbackStoreResult = 'stored' | 'already_present' | 'failed';
export type RelayResult = 'published' | 'failure' | 'dead_letter' | 'claim_lost';

export function kafkaFirstMetrics(r: Registry) {
  return {
    directAttempts: counter(r, {
      name: 'tidemark_kafka_first_direct_attempts_total',
      help: 'Direct Kafka attempts after commit, by result (timeout = delivery unknown).',
      labelNames: ['domain', 'result'],
    }),
    circuitSkips: counter(r, {
      name: 'tidemark_kafka_first_direct_skipped_total',
      help: 'Events stored as fallback rows without direct attempts because the Kafka circuit was open (the cluster was known to be unreachable).',
      labelNames: ['domain'],
    }),
    outcomes: counter(r, {
      name: 'tidemark_kafka_first_publish_outcomes_total',
      help: 'Kafka-first publication outcome per event: published_direct, fallback_stored, fallback_store_failed.',
      labelNames: ['domain', 'outcome'],
    }),
    fallbackStores: counter(r, {
      name: 'tidemark_kafka_first_fallback_stores_total',
      help: 'Fallback event_publications writes by result (stored, already_present, failed).',
      labelNames: ['domain', 'result'],
    }),
    relay: counter(r, {
      name: 'tidemark_kafka_first_relay_outcomes_total',
      help: 'Relay outcomes per event_publications row: published, failure (retry scheduled), dead_letter, claim_lost.',
      labelNames: ['store', 'result'],
    }),
    oldestNotPublishedAge: gauge(r, {
      name: 'tidemark_kafka_first_oldest_not_published_age_seconds',
      help: 'Age of the oldest NOT_PUBLISHED event_publications row (0 when none), by the database clock.',
      labelNames: ['store', 'domain'],
    }),
    notPublished: gauge(r, {
      name: 'tidemark_kafka_first_not_published_rows',
      help: 'event_publications rows waiting for the relay.',
      labelNames: ['store', 'domain'],
    }),
    deadLetters: gauge(r, {
      name: 'tidemark_kafka_first_dead_letter_rows',
      help: 'event_publications rows in DEAD_LETTER (need an operator replay).',
      labelNames: ['store', 'domain'],
    }),
    expiredClaims: gauge(r, {
      name: 'tidemark_kafka_first_expired_claims',
      help: 'NOT_PUBLISHED rows whose relay claim expired without completion (a relay died or stalled).',
      labelNames: ['store', 'domain'],
    }),
    replays: counter(r, {
      name: 'tidemark_kafka_first_dead_letter_replays_total',
      help: 'DEAD_LETTER rows moved back to NOT_PUBLISHED by an operator.',
      labelNames: ['domain'],
    }),
  };
}

export type KafkaFirstMetrics = ReturnType<typeof kafkaFirstMetrics>;
