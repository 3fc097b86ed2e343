// Kafka helpers of the benchmark harness: private topics for the ceilings (same partition count as
// the domain topics, so raw and ours write to the same shape), message counts from offsets, a reader
// that takes a topic's messages back (broker timestamps, keys, headers) for the peer rows, and the
// consumer groups of a row (waiting for an assignment, deleting them afterwards).
import { randomBytes } from 'node:crypto';
import { AssignerProtocol, type Kafka } from 'kafkajs';
import { createServedTopics } from '../../src/infra/kafka/fromKafka';
import { waitFor } from '../../src/shared/lifecycle';

/**
 * Creates a topic. `appendTime` makes the broker stamp each message as it appends it
 * (message.timestamp.type=LogAppendTime), so two producers' messages carry comparable times.
 */
export async function createTopic(kafka: Kafka, topic: string, partitions: number, o: { appendTime?: boolean } = {}): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const configEntries = o.appendTime ? [{ name: 'message.timestamp.type', value: 'LogAppendTime' }] : undefined;
    await createServedTopics(admin, [{ topic, numPartitions: partitions, replicationFactor: 1, configEntries }]);
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

/** High watermark per partition. */
export async function topicEnds(kafka: Kafka, topic: string): Promise<Map<number, number>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return new Map((await admin.fetchTopicOffsets(topic)).map((o) => [o.partition, Number(o.high)]));
  } finally {
    await admin.disconnect();
  }
}

/**
 * Waits until consumer group `groupId` is Stable and its members own `partitions` partitions of
 * `topic` together (any client: kafkajs, or librdkafka inside ClickHouse). Returns the member count.
 */
export async function waitGroupAssigned(
  kafka: Kafka,
  groupId: string,
  topic: string,
  partitions: number,
  timeoutMs = 60_000,
): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await waitFor(
      async () => {
        const g = (await admin.describeGroups([groupId])).groups[0];
        if (g?.state !== 'Stable') return false;
        let owned = 0;
        for (const m of g.members) {
          if (!m.memberAssignment?.length) continue;
          owned += AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment[topic]?.length ?? 0;
        }
        return owned === partitions ? g.members.length : false;
      },
      { timeoutMs, intervalMs: 50, what: `consumer group ${groupId} to own ${partitions} partitions of ${topic}` },
    );
  } finally {
    await admin.disconnect();
  }
}

export interface TopicMessage {
  partition: number;
  /** The message's timestamp (the broker's append time on an appendTime topic), epoch ms. */
  timestamp: number;
  key: string;
  headers: Record<string, string>;
}

/** Reads every message from `from` (per partition; default the beginning) up to the current end. */
export async function readTopic(kafka: Kafka, topic: string, from: Map<number, number> = new Map()): Promise<TopicMessage[]> {
  const ends = await topicEnds(kafka, topic);
  const pending = new Set([...ends].filter(([p, end]) => end > (from.get(p) ?? 0)).map(([p]) => p));
  const out: TopicMessage[] = [];
  if (pending.size === 0) return out;
  const consumer = kafka.consumer({ groupId: `tidemark-bench-read-${randomBytes(6).toString('hex')}`, maxBytes: 50 * 1024 * 1024 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const end = ends.get(batch.partition) ?? 0;
        for (const m of batch.messages) {
          if (Number(m.offset) >= end) break;
          if (Number(m.offset) < (from.get(batch.partition) ?? 0)) continue;
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(m.headers ?? {})) headers[k] = Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
          out.push({ partition: batch.partition, timestamp: Number(m.timestamp), key: m.key?.toString('utf8') ?? '', headers });
          if (Number(m.offset) === end - 1) pending.delete(batch.partition);
        }
      },
    });
    for (const [partition, offset] of from) if (offset > 0) consumer.seek({ topic, partition, offset: String(offset) });
    await waitFor(() => pending.size === 0, { timeoutMs: 300_000, intervalMs: 100, what: `reading ${topic} to its end` });
  } finally {
    await consumer.disconnect();
  }
  return out;
}

/** Deletes consumer groups a row created (best effort: an empty group expires on its own anyway). */
export async function deleteGroups(kafka: Kafka, groupIds: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.deleteGroups(groupIds).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}

/**
 * Commits offset 0 of every partition for a group that has not consumed yet, so a consumer that would
 * start at the end (librdkafka's auto.offset.reset is `latest`) reads the topic from its beginning.
 */
export async function startGroupAtBeginning(kafka: Kafka, groupId: string, topic: string, partitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.setOffsets({
      groupId,
      topic,
      partitions: Array.from({ length: partitions }, (_, partition) => ({ partition, offset: '0' })),
    });
  } finally {
    await admin.disconnect();
  }
}
