// Composition of the kafka-first publisher, called by the composition root (src/app): the publisher
// with its own direct producer and the process's Kafka circuit. `stop()` disconnects the producer.
// (The relay of event_publications rows is the one relay engine: src/app/starters/relay.ts.)
import type { Registry } from 'prom-client';
import type { Resources } from '../resources';
import type { KafkaCircuit } from '../../infra/kafka/kafkaCircuit';
import { exponentialBackoff } from '../../shared/backoff';
import { systemClock } from '../../shared/clock';
import type { Stoppable } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import type { Publisher } from '../../publication/publisher';
import type { StateChangeSink } from '../../publication/stateChanges/stateChange';
import { fromKafkaFirstPublisher } from '../../publication/kafkaFirst/kafkaFirstPublisher';
import { kafkaFirstMetrics } from '../../publication/kafkaFirst/metrics';
import { fromDirectKafkaProducer, fromProducerFactory } from '../../publication/kafkaFirst/recordSender';

export interface KafkaFirstWiringDeps {
  resources: Resources;
  registry: Registry;
  logger: Logger;
  stateChanges: StateChangeSink;
  kafkaCircuit: KafkaCircuit;
}

/** The number of direct attempts after commit, fixed by the specification. */
export const DIRECT_ATTEMPTS = 3;

export function createKafkaFirstPublisher(d: KafkaFirstWiringDeps): Stoppable & { publisher: Publisher } {
  const s = d.resources.settings;
  const sender = fromProducerFactory(() => fromDirectKafkaProducer(s, s.kafkaFirstAttemptTimeoutMs), { resetAfterFailure: true });
  const publisher = fromKafkaFirstPublisher({
    sender,
    topics: d.resources.topics,
    policy: {
      attempts: DIRECT_ATTEMPTS,
      attemptTimeoutMs: s.kafkaFirstAttemptTimeoutMs,
      deadlineMs: s.kafkaFirstDeadlineMs,
      retry: exponentialBackoff({
        baseMs: s.kafkaFirstRetryDelayMs,
        maxMs: Math.max(1, s.kafkaFirstRetryDelayMs * 4),
        maxAttempts: DIRECT_ATTEMPTS,
      }),
    },
    fallbackTimeoutMs: s.kafkaFirstFallbackTimeoutMs,
    clock: systemClock,
    metrics: kafkaFirstMetrics(d.registry),
    logger: d.logger.child({ component: 'kafka-first-publisher' }),
    stateChanges: d.stateChanges,
    circuit: d.kafkaCircuit,
  });
  return { publisher, stop: () => sender.close() };
}
