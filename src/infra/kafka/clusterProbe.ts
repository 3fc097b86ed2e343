// The question a Kafka circuit asks while it is open: does the cluster answer, and does every partition
// of our topics have a leader among the brokers it lists? One metadata request on a fresh connection
// with no client retries, bounded by the probe timeout, so a broker that accepts TCP but never answers
// (a hung process, a black-holing network) fails the probe instead of hanging it.
import { Kafka, logLevel } from 'kafkajs';
import { withTimeout } from '../../shared/timeout';
import { kafkaSecurity } from '../tls';
import type { KafkaSecuritySettings, KafkaSettings } from './fromKafka';

export function fromKafkaClusterProbe(
  s: Pick<KafkaSettings, 'kafkaBrokers' | 'kafkaClientId'> & KafkaSecuritySettings,
  topics: string[],
  timeoutMs: number,
): () => Promise<void> {
  const kafka = new Kafka({
    clientId: `${s.kafkaClientId}-probe`,
    brokers: s.kafkaBrokers,
    ...kafkaSecurity(s),
    connectionTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    enforceRequestTimeout: true,
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  });
  return async () => {
    const admin = kafka.admin({ retry: { retries: 0 } });
    try {
      await withTimeout(
        (async () => {
          await admin.connect();
          const cluster = await admin.describeCluster();
          const live = new Set(cluster.brokers.map((b) => b.nodeId));
          const md = await admin.fetchTopicMetadata({ topics });
          const leaderless = md.topics.flatMap((t) =>
            t.partitions.filter((p) => !live.has(p.leader)).map((p) => `${t.name}:${p.partitionId}`),
          );
          if (leaderless.length) throw new Error(`partitions without a live leader: ${leaderless.slice(0, 5).join(', ')}`);
        })(),
        timeoutMs,
        'Kafka cluster probe',
      );
    } finally {
      void admin.disconnect().catch(() => undefined);
    }
  };
}
