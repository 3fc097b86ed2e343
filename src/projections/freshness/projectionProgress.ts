// Port: how far the projector is, per partition of a domain's topic. Adapter: the log end offsets
// from Kafka (admin ListOffsets, the broker's persisted state) against the applied positions the
// projector persisted in ClickHouse (projection_checkpoints), both readable from any gateway, and the
// offsets that expired unapplied and are not reconciled yet (projection_expired_offsets).
// Stalled partitions are found with Kafka's timestamp index: if the first offset published at or
// after (now - staleAfter) lies beyond the applied position, an older message is still unapplied.
// That lookup only runs when some partition is behind.
import type { Admin, Kafka } from 'kafkajs';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { Topics } from '../../infra/kafka/fromKafka';
import type { Domain } from '../../publication/event';
import type { Known, PartitionProgress } from './decideFreshness';
import { readCheckpoints, type AppliedPosition } from './sql/readCheckpoints';
import { openExpiredByPartition } from '../sql/readExpiredOffsets';
import { OperationTimeoutError, withTimeout } from '../../shared/timeout';

/** One partition's offsets on Kafka: the log start (older messages expired) and the log end. */
export interface LogOffsets {
  partition: number;
  low: bigint;
  high: bigint;
}

export interface ProjectionProgressSource {
  progress(domain: Domain, asOfMs: number): Promise<Known<PartitionProgress[]>>;
  /** The log start and end offsets of every partition of the domain's topic, now (throws if Kafka is unavailable). */
  logOffsets(domain: Domain): Promise<LogOffsets[]>;
  /** The projector's checkpointed next offset per partition (throws if ClickHouse is unavailable). */
  appliedOffsets(domain: Domain): Promise<Map<number, bigint>>;
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

export function fromKafkaAndCheckpoints(d: ProjectionProgressDeps): ProjectionProgressSource {
  const timeoutMs = d.timeoutMs ?? 2000;
  let admin: Admin | undefined;
  let connecting: Promise<Admin> | undefined;

  function connected(): Promise<Admin> {
    if (admin) return Promise.resolve(admin);
    connecting ??= (async () => {
      const a = d.kafka.admin();
      try {
        await a.connect();
        admin = a;
        return a;
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  }
  async function withAdmin<T>(fn: (a: Admin) => Promise<T>): Promise<T> {
    const a = await connected();
    try {
      return await fn(a);
    } catch (err) {
      // Drop the connection so the next question reconnects (the broker may have come back).
      if (admin === a) admin = undefined;
      await a.disconnect().catch(() => undefined);
      throw err;
    }
  }

  const topicOf = (domain: Domain) => (domain === 'fitness' ? d.topics.fitnessResults : d.topics.orders);
  return {
    async logOffsets(domain) {
      const ends = await readWithin(
        withAdmin((a) => a.fetchTopicOffsets(topicOf(domain))),
        timeoutMs,
      );
      return ends.map((e) => ({ partition: e.partition, low: BigInt(e.low), high: BigInt(e.high) }));
    },
    async appliedOffsets(domain) {
      const applied = await readWithin(readCheckpoints(d.clickhouse, d.database, d.consumer, topicOf(domain)), timeoutMs);
      return new Map(applied.map((p) => [p.partition, p.nextOffset]));
    },
    async progress(domain, asOfMs) {
      const topic = topicOf(domain);
      const [ends, applied, expired] = await Promise.allSettled([
        readWithin(
          withAdmin((a) => a.fetchTopicOffsets(topic)),
          timeoutMs,
        ),
        readWithin(readCheckpoints(d.clickhouse, d.database, d.consumer, topic), timeoutMs),
        readWithin(openExpiredByPartition(d.clickhouse, d.database, d.consumer, topic), timeoutMs),
      ]);
      const unavailable: string[] = [];
      if (ends.status === 'rejected') {
        unavailable.push('kafka');
        d.onError?.('kafka', ends.reason);
      }
      const chFailure = applied.status === 'rejected' ? applied.reason : expired.status === 'rejected' ? expired.reason : undefined;
      if (chFailure !== undefined) {
        unavailable.push('clickhouse');
        d.onError?.('clickhouse', chFailure);
      }
      if (ends.status === 'rejected' || applied.status === 'rejected' || expired.status === 'rejected') return { ok: false, unavailable };

      const byPartition = new Map<number, AppliedPosition>(applied.value.map((p) => [p.partition, p]));
      const positions = ends.value.map((e) => {
        const cp = byPartition.get(e.partition);
        const low = BigInt(e.low);
        const from = cp && cp.nextOffset > low ? cp.nextOffset : low;
        const high = BigInt(e.high);
        return {
          partition: e.partition,
          from,
          behind: high > from ? Number(high - from) : 0,
          appliedCommitMs: cp && cp.sourceCommitMs > 0 ? cp.sourceCommitMs : null,
        };
      });
      let stallOffsets = new Map<number, bigint>();
      if (positions.some((p) => p.behind > 0)) {
        try {
          const byTime = await readWithin(
            withAdmin((a) => a.fetchTopicOffsetsByTimestamp(topic, asOfMs - d.staleAfterMs)),
            timeoutMs,
          );
          stallOffsets = new Map(byTime.map((o) => [o.partition, BigInt(o.offset)]));
        } catch (err) {
          d.onError?.('kafka', err);
          return { ok: false, unavailable: ['kafka'] };
        }
      }
      return {
        ok: true,
        value: positions.map((p) => ({
          partition: p.partition,
          behind: p.behind,
          appliedCommitMs: p.appliedCommitMs,
          stalled: p.behind > 0 && p.from < (stallOffsets.get(p.partition) ?? 0n),
          expiredUnreconciled: expired.value.get(p.partition) ?? 0,
        })),
      };
    },
    async close() {
      const a = admin;
      admin = undefined;
      await a?.disconnect().catch(() => undefined);
    },
  };
}
