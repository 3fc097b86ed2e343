// Kafka helpers of the benchmark harness: private topics for the ceilings (same partition count as
// the domain topics, so raw and ours write to the same shape), and message counts from offsets.
import type { Kafka } from 'kafkajs';
import { createServedTopics } from '../../src/infra/kafka/fromKafka';

export async function createTopic(kafka: Kafka, topic: string, partitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await createServedTopics(admin, [{ topic, numPartitions: partitions, replicationFactor: 1 }]);
  } finally {
    await admin.disconnect();
  }
}

/** Messages in a topic (sum of high watermarks; the topics here are never compacted or truncated). */
export async function topicMessageCount(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((n, o) => n + Number(o.high) - Number(o.low), 0);
  } finally {
    await admin.disconnect();
  }
}
