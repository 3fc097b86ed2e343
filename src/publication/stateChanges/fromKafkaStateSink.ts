// Publishes state changes to the publication-state topic in small batches, off the caller's path:
// `emit` only appends to a bounded in-memory buffer; a timer flushes it. If Kafka is down the buffer
// keeps the newest `maxBuffered` changes and counts what it dropped: these are live notifications,
// and the publication tables remain the record operators can always query. While the process's Kafka
// circuit is open no flush is tried (each would only wait for a connection that cannot succeed); when
// it closes, the backlog goes out at most MAX_PER_FLUSH changes per tick, so catching up never stalls
// the process that serves requests with one huge encode and send.
import type { Kafka, Producer } from 'kafkajs';
import type { KafkaCircuit } from '../../infra/kafka/kafkaCircuit';
import { counter, type Registry } from '../../metrics/registry';
import type { Logger } from '../../shared/logger';
import { encodeStateChanges, type StateChange, type StateChangeSink } from './stateChange';

export interface KafkaStateSinkOptions {
  kafka: Kafka;
  topic: string;
  registry: Registry;
  logger: Logger;
  flushIntervalMs?: number;
  maxBuffered?: number;
  circuit?: Pick<KafkaCircuit, 'state'>;
}

/** Most changes per Kafka message (about 250 bytes each, far below the broker's message limit). */
const CHANGES_PER_MESSAGE = 200;
/** Most changes one flush sends (ten messages): a backlog drains over several ticks. */
const MAX_PER_FLUSH = 2000;

export function fromKafkaStateSink(o: KafkaStateSinkOptions): StateChangeSink {
  const flushMs = o.flushIntervalMs ?? 25;
  const maxBuffered = o.maxBuffered ?? 10000;
  const dropped = counter(o.registry, {
    name: 'tidemark_state_changes_dropped_total',
    help: 'Publication state-change notifications dropped because Kafka could not take them in time.',
  });
  const sent = counter(o.registry, {
    name: 'tidemark_state_changes_published_total',
    help: 'Publication state-change notifications published.',
  });
  const producer: Producer = o.kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 2, initialRetryTime: 100 } });
  let connected: Promise<void> | undefined;
  let buffer: StateChange[] = [];
  let flushing: Promise<void> | undefined;
  let stopped = false;

  async function flush(): Promise<void> {
    if (buffer.length === 0) return;
    const batch = buffer.slice(0, MAX_PER_FLUSH);
    buffer = buffer.slice(batch.length);
    let done = 0;
    try {
      connected ??= producer.connect();
      await connected;
      // Many changes per message, one send per flush: per-change messages cost the relay and the
      // projector as much Kafka work as the events themselves (docs/benchmarks.md). The topic has a
      // single partition, so the order of changes is kept without a key.
      const messages: { value: string }[] = [];
      for (let i = 0; i < batch.length; i += CHANGES_PER_MESSAGE)
        messages.push({ value: encodeStateChanges(batch.slice(i, i + CHANGES_PER_MESSAGE)) });
      await producer.send({ topic: o.topic, acks: 1, messages });
      done = batch.length;
      sent.inc(batch.length);
    } catch (err) {
      connected = undefined;
      // Put the unsent part back ahead of newer changes, keeping at most maxBuffered (the newest).
      buffer = [...batch.slice(done), ...buffer];
      if (buffer.length > maxBuffered) {
        dropped.inc(buffer.length - maxBuffered);
        buffer = buffer.slice(buffer.length - maxBuffered);
      }
      o.logger.warn({ err: { name: (err as Error).name }, pending: buffer.length }, 'state-change publish failed; will retry');
    }
  }

  const timer = setInterval(() => {
    if (!flushing && buffer.length && o.circuit?.state !== 'open') flushing = flush().finally(() => (flushing = undefined));
  }, flushMs);
  timer.unref();

  return {
    emit(changes) {
      if (stopped || changes.length === 0) return;
      buffer.push(...changes);
      if (buffer.length > maxBuffered) {
        dropped.inc(buffer.length - maxBuffered);
        buffer = buffer.slice(buffer.length - maxBuffered);
      }
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await flushing;
      for (let before = Infinity; buffer.length && buffer.length < before;) {
        before = buffer.length;
        await flush();
      }
      await producer.disconnect().catch(() => undefined);
    },
  };
}
