// Kafka adapter: the client, the topic names every role agrees on, and idempotent topic creation.
import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { Settings } from '../../config/settings';
import { waitFor } from '../../shared/lifecycle';

export type KafkaSettings = Pick<Settings, 'kafkaBrokers' | 'kafkaClientId' | 'kafkaTopicPrefix' | 'kafkaPartitions' | 'kafkaReplicationFactor'>;

export interface Topics {
  fitnessResults: string;
  orders: string;
  publicationState: string;
  deadLetter: string;
}

export function topicNames(prefix: string): Topics {
  return {
    fitnessResults: `${prefix}.fitness-results`,
    orders: `${prefix}.orders`,
    publicationState: `${prefix}.publication-state`,
    deadLetter: `${prefix}.dead-letter`,
  };
}

export function fromKafka(s: KafkaSettings, clientSuffix = ''): Kafka {
  return new Kafka({
    clientId: `${s.kafkaClientId}${clientSuffix}`,
    brokers: s.kafkaBrokers,
    connectionTimeout: 3000,
    requestTimeout: 10000,
    logLevel: logLevel.NOTHING,
    retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2000 },
  });
}

/** Creates every Tidemark topic that does not exist yet; existing topics are left as they are. */
export async function ensureTopics(kafka: Kafka, s: KafkaSettings): Promise<Topics> {
  const topics = topicNames(s.kafkaTopicPrefix);
  const admin: Admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const wanted = Object.values(topics).filter((t) => !existing.has(t));
    if (wanted.length) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: wanted.map((topic) => ({
          topic,
          numPartitions: topic === topics.publicationState ? 1 : s.kafkaPartitions,
          replicationFactor: s.kafkaReplicationFactor,
        })),
      });
      // A loaded broker can answer createTopics before every partition has a leader it serves
      // ("This server does not host this topic-partition"); wait until metadata shows all of them.
      await waitFor(
        async () => {
          const md = await admin.fetchTopicMetadata({ topics: wanted });
          return md.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
        },
        { timeoutMs: 30000, intervalMs: 100, what: `leaders for ${wanted.join(', ')}` },
      );
    }
  } finally {
    await admin.disconnect();
  }
  return topics;
}
