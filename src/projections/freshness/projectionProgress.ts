// Port: how far the projector is, per partition of a domain's topic. Adapter: the log end offsets
// from Kafka (admin ListOffsets, the broker's persisted state) against what the projector persisted in
// ClickHouse (appliedSnapshot.ts: the checkpoints first, then the expired offsets not yet reconciled
// and the unresolved dead letters), both readable from any gateway. The freshness service asks the
// pieces separately (ProjectorStateSource), in the order its rule needs; `progress` composes them for
// callers that want one answer now. Stalled partitions are found with Kafka's timestamp index: if the
// first offset published at or after (now - staleAfter) lies beyond the applied position, an older
// message is still unapplied. That lookup only runs when some partition is behind.
import type { Kafka } from 'kafkajs';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { topicOf as eventsTopicOf, type Topics } from '../../infra/kafka/fromKafka';
import { lazyAdmin } from '../../infra/kafka/lazyAdmin';
import type { Domain } from '../../publication/event';
import type { Known, PartitionProgress } from './decideFreshness';
import { readCheckpoints } from './sql/readCheckpoints';
import { readAppliedSnapshot, type AppliedSnapshot } from './appliedSnapshot';
import { partitionProgress, type LogOffsets } from './partitionProgress';
import { OperationTimeoutError, withTimeout } from '../../shared/timeout';

export interface ProjectionProgressSource {
  progress(domain: Domain, asOfMs: number): Promise<Known<PartitionProgress[]>>;
  /** The log start and end offsets of every partition of the domain's topic, now (throws if Kafka is unavailable). */
  logOffsets(domain: Domain): Promise<LogOffsets[]>;
  /** The projector's checkpointed next offset per partition (throws if ClickHouse is unavailable). */
  appliedOffsets(domain: Domain): Promise<Map<number, bigint>>;
  close(): Promise<void>;
}

/** The pieces of projector progress, read separately (each throws when its store is unavailable). */
export interface ProjectorStateSource {
  /** logOffsets that also reports a failure (onError), as every piece here does. */
  logEnds(domain: Domain): Promise<LogOffsets[]>;
  /** Checkpoints, then expired ranges and unresolved dead letters (ClickHouse). */
  applied(domain: Domain): Promise<AppliedSnapshot>;
  /** Per partition, the first offset published at or after `atMs` (Kafka's timestamp index). */
  offsetsAt(domain: Domain, atMs: number): Promise<Map<number, bigint>>;
  close(): Promise<void>;
}

export interface ProjectionProgressDeps {
  kafka: Kafka;
  clickhouse: ClickHouseClient;
  database: string;
  topics: Topics;
  /** The projector's consumer group (the checkpoints' `consumer`). */
  consumer: string;
  staleAfterMs: number;
  timeoutMs?: number;
  onError?: (store: string, err: unknown) => void;
}

/** A read that did not answer in time: the store is unavailable for this freshness check. */
const readWithin = <T>(p: Promise<T>, ms: number): Promise<T> =>
  withTimeout(p, ms, () => new OperationTimeoutError('projection progress read', ms, 'STORE_UNAVAILABLE'));

export function fromKafkaAndCheckpoints(d: ProjectionProgressDeps): ProjectionProgressSource & ProjectorStateSource {
  const timeoutMs = d.timeoutMs ?? 2000;
  const admin = lazyAdmin(d.kafka);

  const topicOf = (domain: Domain) => eventsTopicOf(d.topics, domain);
  /** The pieces report their store's failure (onError) and rethrow. */
  const reported = <T>(store: string, p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      d.onError?.(store, err);
      throw err;
    });
  const source: ProjectionProgressSource & ProjectorStateSource = {
    async logOffsets(domain) {
      const ends = await readWithin(
        admin.use((a) => a.fetchTopicOffsets(topicOf(domain))),
        timeoutMs,
      );
      return ends.map((e) => ({ partition: e.partition, low: BigInt(e.low), high: BigInt(e.high) }));
    },
    async appliedOffsets(domain) {
      const applied = await readWithin(readCheckpoints(d.clickhouse, d.database, d.consumer, topicOf(domain)), timeoutMs);
      return new Map(applied.map((p) => [p.partition, p.nextOffset]));
    },
    applied: (domain) =>
      reported('clickhouse', readWithin(readAppliedSnapshot(d.clickhouse, d.database, d.consumer, topicOf(domain), domain), timeoutMs)),
    logEnds: (domain) => reported('kafka', source.logOffsets(domain)),
    async offsetsAt(domain, atMs) {
      const byTime = await reported(
        'kafka',
        readWithin(
          admin.use((a) => a.fetchTopicOffsetsByTimestamp(topicOf(domain), atMs)),
          timeoutMs,
        ),
      );
      return new Map(byTime.map((o) => [o.partition, BigInt(o.offset)]));
    },
    async progress(domain, asOfMs) {
      const [ends, applied] = await Promise.allSettled([source.logEnds(domain), source.applied(domain)]);
      const unavailable: string[] = [];
      if (ends.status === 'rejected') unavailable.push('kafka');
      if (applied.status === 'rejected') unavailable.push('clickhouse');
      if (ends.status === 'rejected' || applied.status === 'rejected') return { ok: false, unavailable };
      const progress = partitionProgress({ ends: ends.value, applied: applied.value, stallOffsets: new Map() });
      if (!progress.some((p) => p.behind > 0)) return { ok: true, value: progress };
      try {
        const stallOffsets = await source.offsetsAt(domain, asOfMs - d.staleAfterMs);
        return { ok: true, value: partitionProgress({ ends: ends.value, applied: applied.value, stallOffsets }) };
      } catch {
        return { ok: false, unavailable: ['kafka'] };
      }
    },
    close: () => admin.close(),
  };
  return source;
}
