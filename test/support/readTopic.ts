// Reads a topic from the beginning with a throw-away consumer group until `until` holds, for tests
// that check what actually reached the broker.
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { EventEnvelope } from '../../src/publication/event';
import { waitFor } from '../../src/shared/lifecycle';

export interface TopicMessage {
  key: string;
  partition: number;
  offset: string;
  headers: Record<string, string>;
  envelope: EventEnvelope;
}

export async function readTopic(
  kafka: Kafka,
  topic: string,
  until: (msgs: TopicMessage[]) => boolean,
  timeoutMs = 20000,
): Promise<TopicMessage[]> {
  const consumer = kafka.consumer({ groupId: `test-reader-${randomUUID()}`, maxWaitTimeInMs: 100 });
  const msgs: TopicMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message, partition }) => {
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
        msgs.push({
          key: message.key?.toString() ?? '',
          partition,
          offset: message.offset,
          headers,
          envelope: JSON.parse(message.value!.toString()) as EventEnvelope,
        });
      },
    });
    await waitFor(() => until(msgs), { timeoutMs, intervalMs: 50, what: `messages on ${topic}` });
    return [...msgs];
  } finally {
    await consumer.disconnect();
  }
}

/** Every message on the topic now: read from the beginning until each partition's end offset, as of the call. */
export async function readTopicToEnd(kafka: Kafka, topic: string, timeoutMs = 20000): Promise<TopicMessage[]> {
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
  const last = new Map(ends.filter((p) => BigInt(p.high) > 0n).map((p) => [p.partition, BigInt(p.high) - 1n]));
  if (last.size === 0) return [];
  const reached = (msgs: TopicMessage[]) =>
    [...last].every(([partition, end]) => msgs.some((m) => m.partition === partition && BigInt(m.offset) >= end));
  return readTopic(kafka, topic, reached, timeoutMs);
}
