// Port: how far the projector is, per partition of a domain's topic. Adapter: the log end offsets
// from Kafka (admin ListOffsets, the broker's persisted state) against the applied positions the
// projector persisted in ClickHouse (projection_checkpoints), both readable from any gateway.
// Stalled partitions are found with Kafka's timestamp index: if the first offset published at or
// after (now - staleAfter) lies beyond the applied position, an older message is still unapplied.
// That lookup only runs when some partition is behind.
import type { Admin, Kafka } from 'kafkajs';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { Topics } from '../../infra/kafka/fromKafka';
import type { Domain } from '../../publication/event';
import type { Known, PartitionProgress } from './decideFreshness';
import { readCheckpoints, type AppliedPosition } from './sql/readCheckpoints';

export interface ProjectionProgressSource {
  progress(domain: Domain, asOfMs: number): Promise<Known<PartitionProgress[]>>;
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

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timed out')), ms);
    p.then(
      (v) => { clearTimeout(t); resolve(v); },
      (e) => { clearTimeout(t); reject(e); },
    );
  });
}

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

  return {
    async progress(domain, asOfMs) {
      const topic = domain === 'fitness' ? d.topics.fitnessResults : d.topics.orders;
      const [ends, applied] = await Promise.allSettled([
        within(withAdmin((a) => a.fetchTopicOffsets(topic)), timeoutMs),
        within(readCheckpoints(d.clickhouse, d.database, d.consumer, topic), timeoutMs),
      ]);
      const unavailable: string[] = [];
      if (ends.status === 'rejected') {
        unavailable.push('kafka');
        d.onError?.('kafka', ends.reason);
      }
      if (applied.status === 'rejected') {
        unavailable.push('clickhouse');
        d.onError?.('clickhouse', applied.reason);
      }
      if (ends.status === 'rejected' || applied.status === 'rejected') return { ok: false, unavailable };

      const byPartition = new Map<number, AppliedPosition>(applied.value.map((p) => [p.partition, p]));
      const positions = ends.value.map((e) => {
        const cp = byPartition.get(e.partition);
        const low = BigInt(e.low);
        const from = cp && cp.nextOffset > low ? cp.nextOffset : low;
        const high = BigInt(e.high);
        return { partition: e.partition, from, behind: high > from ? Number(high - from) : 0, appliedCommitMs: cp && cp.sourceCommitMs > 0 ? cp.sourceCommitMs : null };
      });
      let stallOffsets = new Map<number, bigint>();
      if (positions.some((p) => p.behind > 0)) {
        try {
          const byTime = await within(withAdmin((a) => a.fetchTopicOffsetsByTimestamp(topic, asOfMs - d.staleAfterMs)), timeoutMs);
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
