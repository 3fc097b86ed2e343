// Composition helpers of the kafka-first strategy, called by the composition root (src/app): the
// publisher with its own direct producer, and the relay over every store. Each returns `stop()`,
// which drains and then disconnects its producer.
import type { Registry } from 'prom-client';
import type { Resources } from '../../app/resources';
import { fromKafkaProducer } from '../../infra/kafka/producer';
import { exponentialBackoff } from '../../relay/backoff';
import { startKafkaFirstRelay } from '../../relay/kafkaFirst/kafkaFirstRelay';
import { randomIds, systemClock } from '../../shared/clock';
import type { Stoppable } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import type { Publisher } from '../publisher';
import type { StateChangeSink } from '../stateChanges/stateChange';
import { fromKafkaFirstPublisher } from './kafkaFirstPublisher';
import { kafkaFirstMetrics } from './metrics';
import { fromDirectKafkaProducer, fromProducerFactory } from './recordSender';
import { publicationStores } from './stores';

export interface KafkaFirstWiringDeps {
  resources: Resources;
  registry: Registry;
  logger: Logger;
  stateChanges?: StateChangeSink;
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
      retry: exponentialBackoff({ baseMs: s.kafkaFirstRetryDelayMs, maxMs: Math.max(1, s.kafkaFirstRetryDelayMs * 4), maxAttempts: DIRECT_ATTEMPTS }),
    },
    fallbackTimeoutMs: s.kafkaFirstFallbackTimeoutMs,
    clock: systemClock,
    metrics: kafkaFirstMetrics(d.registry),
    logger: d.logger.child({ component: 'kafka-first-publisher' }),
    stateChanges: d.stateChanges,
  });
  return { publisher, stop: () => sender.close() };
}

export function startKafkaFirstRelayFor(d: KafkaFirstWiringDeps & { instanceId: string }): Stoppable {
  const s = d.resources.settings;
  const sender = fromProducerFactory(() => fromKafkaProducer(d.resources.kafka), { resetAfterFailure: false });
  const relay = startKafkaFirstRelay(publicationStores(d.resources), {
    sender,
    policy: exponentialBackoff({ baseMs: s.relayBackoffBaseMs, maxMs: s.relayBackoffMaxMs, maxAttempts: s.kafkaFirstRelayMaxAttempts }),
    instanceId: d.instanceId,
    ids: randomIds,
    clock: systemClock,
    leaseMs: s.relayLeaseMs,
    publishTimeoutMs: s.relayPublishTimeoutMs,
    batchSize: s.kafkaFirstRelayBatchSize,
    pollIntervalMs: s.kafkaFirstRelayPollIntervalMs,
    statsIntervalMs: s.kafkaFirstStatsIntervalMs,
    metrics: kafkaFirstMetrics(d.registry),
    logger: d.logger.child({ component: 'kafka-first-relay' }),
    stateChanges: d.stateChanges,
  });
  return {
    async stop() {
      await relay.stop();
      await sender.close();
    },
  };
}
