// Where replays and tombstones go: the domain's own topic, as the very record the write path
// produced (toKafkaRecord of the authoritative state: same key, same eventId, same version), so the
// projector applies them through its normal mapping and insert path. acks=all, idempotent producer.
// A duplicate of an event Kafka already holds is harmless: the projection keeps one row per version.
import type { Kafka, Producer } from 'kafkajs';
import type { Topics } from '../../infra/kafka/fromKafka';
import { fromKafkaProducer } from '../../infra/kafka/producer';
import { toKafkaRecord, type DomainEvent } from '../../publication/event';
import { topicByDomain } from '../../publication/outbox/outboxRow';

export interface RepairSink {
  send(events: DomainEvent[]): Promise<void>;
  close(): Promise<void>;
}

export function fromKafkaRepairSink(kafka: Kafka, topics: Topics): RepairSink {
  let producer: Producer | undefined;
  let connecting: Promise<Producer> | undefined;
  const connected = () => {
    if (producer) return Promise.resolve(producer);
    connecting ??= (async () => {
      const p = fromKafkaProducer(kafka);
      try {
        await p.connect();
        producer = p;
        return p;
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  };
  const topicOf = topicByDomain(topics);
  return {
    async send(events) {
      if (events.length === 0) return;
      const p = await connected();
      const byTopic = new Map<string, DomainEvent[]>();
      for (const e of events) {
        const topic = topicOf(e);
        byTopic.set(topic, [...(byTopic.get(topic) ?? []), e]);
      }
      try {
        await p.sendBatch({
          acks: -1,
          topicMessages: [...byTopic].map(([topic, es]) => ({ topic, messages: es.map((e) => toKafkaRecord(e)) })),
        });
      } catch (err) {
        // A broken connection is rebuilt on the next send.
        if (producer === p) producer = undefined;
        await p.disconnect().catch(() => undefined);
        throw err;
      }
    },
    async close() {
      const p = producer;
      producer = undefined;
      await p?.disconnect().catch(() => undefined);
    },
  };
}
