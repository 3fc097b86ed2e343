// Kafka adapter: the client, the topic names every role agrees on, and idempotent topic creation.
import { Kafka, logLevel, type Admin, type ITopicConfig } from 'kafkajs';
import type { KafkaSecuritySettings, KafkaSettings, KafkaTopicSettings } from '../../config/slices';
import type { Domain } from '../../shared/domain';
import { waitFor } from '../../shared/lifecycle';
import { kafkaSecurity } from '../tls';
import { alignTopicConfigs } from './alignTopicConfigs';
import { personalTopics, topicConfigEntries, type TopicConfigEntry } from './topicConfigs';

export type { KafkaSecuritySettings, KafkaSettings };

export interface Topics {
  /** Each domain's events topic, by domain name (<prefix>.<the domain module's topicSuffix>). */
  events: Readonly<Record<Domain, string>>;
  publicationState: string;
  deadLetter: string;
}

/**
 * Every topic's name under a prefix. `eventTopics` maps each domain to its topic suffix; the domain
 * registry (src/domains/registry.ts, above this floor) supplies it through the composition root.
 */
export function topicNames(prefix: string, eventTopics: Readonly<Record<Domain, string>>): Topics {
  return {
    events: Object.fromEntries(Object.entries(eventTopics).map(([domain, suffix]) => [domain, `${prefix}.${suffix}`])),
    publicationState: `${prefix}.publication-state`,
    deadLetter: `${prefix}.dead-letter`,
  };
}

/** The events topic of a domain; a domain without one is a programming error (it was never registered). */
export function topicOf(topics: Topics, domain: Domain): string {
  const topic = topics.events[domain];
  if (!topic) throw new TypeError(`no events topic for domain ${domain}`);
  return topic;
}

/** Every topic the names hold: each domain's events, the publication states, the dead letters. */
export const allTopics = (t: Topics): string[] => [...Object.values(t.events), t.publicationState, t.deadLetter];

export function fromKafka(s: KafkaSettings, clientSuffix = ''): Kafka {
  return new Kafka({
    clientId: `${s.kafkaClientId}${clientSuffix}`,
    brokers: s.kafkaBrokers,
    ...kafkaSecurity(s),
    connectionTimeout: 3000,
    requestTimeout: 10000,
    logLevel: logLevel.NOTHING,
    retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2000 },
  });
}

export interface EnsureTopicsOptions {
  /**
   * The domains whose events hold personal data (registry's erasableDomains()): their events topics and
   * the dead-letter topic are compacted (topicConfigs.ts), and altered to be when they exist without it.
   */
  compactedDomains?: readonly Domain[];
}

/**
 * Creates every Tidemark topic that does not exist yet. Existing topics keep their partitions; the
 * personal ones (`compactedDomains`) are altered to the compacted configs when they differ.
 * Returns once the broker serves every partition of the topics it created.
 */
export async function ensureTopics(
  kafka: Kafka,
  s: KafkaTopicSettings,
  eventTopics: Readonly<Record<Domain, string>>,
  opts: EnsureTopicsOptions = {},
): Promise<Topics> {
  const topics = topicNames(s.kafkaTopicPrefix, eventTopics);
  const personal = personalTopics(topics, opts.compactedDomains ?? []);
  const admin: Admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const wanted = allTopics(topics).filter((t) => !existing.has(t));
    if (wanted.length) {
      await createServedTopics(
        admin,
        wanted.map((topic) => ({
          topic,
          numPartitions: topic === topics.publicationState ? 1 : s.kafkaPartitions,
          replicationFactor: s.kafkaReplicationFactor,
          configEntries: topicConfigEntries(s, personal.has(topic)),
        })),
      );
    }
    // Only the personal topics are aligned: the others keep what an operator may have tuned by hand.
    const stale = new Map<string, TopicConfigEntry[]>(
      [...personal].filter((t) => existing.has(t)).map((t) => [t, topicConfigEntries(s, true)]),
    );
    await alignTopicConfigs(admin, stale);
  } finally {
    await admin.disconnect();
  }
  return topics;
}

/**
 * Creates the topics and returns once the broker serves every partition of them. kafkajs' own
 * waitForLeaders only retries LEADER_NOT_AVAILABLE, but a KRaft broker answers
 * UNKNOWN_TOPIC_OR_PARTITION ("This server does not host this topic-partition") until its metadata
 * cache has the new topic, so we create without it and wait ourselves. Another process creating
 * the same topic first is fine (createTopics answers false, no throw).
 */
export async function createServedTopics(admin: Admin, specs: ITopicConfig[]): Promise<void> {
  await admin.createTopics({ waitForLeaders: false, topics: specs });
  const names = specs.map((t) => t.topic);
  await waitFor(() => servesEveryPartition(admin, names), { timeoutMs: 30000, intervalMs: 100, what: `leaders for ${names.join(', ')}` });
}

/**
 * True once metadata names a leader for every partition and the leader answers ListOffsets for it.
 * KRaft brokers publish the metadata before the replica manager takes leadership, so a leader in
 * metadata alone still leaves a window where reads and offset lookups fail.
 */
async function servesEveryPartition(admin: Admin, topics: string[]): Promise<boolean> {
  const md = await admin.fetchTopicMetadata({ topics });
  if (!md.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return false;
  for (const t of topics) await admin.fetchTopicOffsets(t);
  return true;
}
