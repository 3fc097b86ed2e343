// The Kafka port of the kafka-first publisher and relay: send one record, acknowledged by the broker
// with acks=all, or fail. Two adapters share it: the direct producer (no client-side retries, so each
// of the publisher's 3 attempts is exactly one request) and the relay's idempotent producer.
import { Kafka, logLevel, type Producer } from 'kafkajs';
import type { KafkaSecuritySettings, KafkaSettings } from '../../infra/kafka/fromKafka';
import { kafkaSecurity } from '../../infra/tls';
import type { KafkaRecord } from '../event';

export interface RecordSender {
  /** Resolves once the broker acknowledged the record (acks=all); `timeoutMs` bounds the broker wait. */
  send(topic: string, record: KafkaRecord, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Wraps kafkajs producers made by `make`: connects lazily, one connect in flight at a time. A producer
 * whose connect failed is discarded (kafkajs keeps a broken broker pool after a failed connect and then
 * fails fast with "Broker not connected"), so the next send really tries the network again. With
 * `resetAfterFailure` any failed send discards it too: the direct path wants every attempt to be a
 * fresh, real try. The relay keeps its producer across send failures (sends run concurrently on it).
 */
export function fromProducerFactory(make: () => Producer, opts: { resetAfterFailure: boolean }): RecordSender {
  interface Entry {
    producer: Producer;
    connected: Promise<void>;
  }
  let current: Entry | undefined;
  let closed = false;
  const discard = (e: Entry) => {
    if (current === e) current = undefined;
    void e.producer.disconnect().catch(() => undefined);
  };
  const entry = (): Entry => {
    if (current) return current;
    const producer = make();
    const e: Entry = { producer, connected: producer.connect() };
    e.connected.catch(() => discard(e));
    current = e;
    return e;
  };
  return {
    async send(topic, record, timeoutMs) {
      if (closed) throw new Error('record sender is closed');
      const e = entry();
      try {
        await e.connected;
        await e.producer.send({
          topic,
          acks: -1,
          timeout: timeoutMs,
          messages: [{ key: record.key, value: record.value, headers: record.headers }],
        });
      } catch (err) {
        if (opts.resetAfterFailure) discard(e);
        throw err;
      }
    },
    async close() {
      closed = true;
      const e = current;
      current = undefined;
      if (!e) return;
      await e.connected.catch(() => undefined);
      await e.producer.disconnect().catch(() => undefined);
    },
  };
}

/**
 * The producer of direct attempts: no client-side retries and connection/request timeouts equal to
 * one attempt's budget, so the publisher's own attempt loop decides how often and how long to try.
 * Not idempotent: across attempts a re-send is a new record anyway, and consumers deduplicate by eventId.
 */
export function fromDirectKafkaProducer(
  s: Pick<KafkaSettings, 'kafkaBrokers' | 'kafkaClientId'> & KafkaSecuritySettings,
  attemptTimeoutMs: number,
): Producer {
  const kafka = new Kafka({
    clientId: `${s.kafkaClientId}-direct`,
    brokers: s.kafkaBrokers,
    ...kafkaSecurity(s),
    connectionTimeout: attemptTimeoutMs,
    requestTimeout: attemptTimeoutMs,
    enforceRequestTimeout: true,
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  });
  return kafka.producer({ allowAutoTopicCreation: false, idempotent: false, retry: { retries: 0 } });
}
