// Detects messages Kafka's retention deleted before the projector applied them. A consumer whose
// committed offset fell below the log start is silently reset to the earliest offset by kafkajs, so
// the projector checks each partition's first batch (and any batch that starts beyond where the
// partition was applied): if it starts past the checkpoint and the checkpoint lies below the log
// start offset, the offsets in between are gone. A partition that receives nothing after the gap
// has no batch, so every partition is also checked when it is assigned. The range goes into a flush
// (with the batch, or alone) before the checkpoint that moves past it (projection_expired_offsets),
// so it is never lost. Checks of one partition run one after the other: a range is reported once.
//
// The window of source commit times the lost events may carry starts `windowMarginMs` before the
// newest commit time applied in the partition (events are published roughly in commit order; one
// published later than that after its commit, such as a parked event replayed, falls outside and is
// left to the rolling re-verification) and ends now (every lost event was published before now).
import type { Kafka } from 'kafkajs';
import type { ClickHouseClient } from '../infra/clickhouse/fromClickHouse';
import { lazyAdmin } from '../infra/kafka/lazyAdmin';
import type { Domain } from '../publication/event';
import type { Clock } from '../shared/clock';
import { readCheckpoints } from './freshness/sql/readCheckpoints';
import type { ExpiredRange } from './rows';

export interface ExpiryDetector {
  /**
   * The range that expired right before `firstOffset` of a batch (or, without it, before the log
   * start of a partition just assigned), if any. Throws when ClickHouse or Kafka cannot answer.
   */
  check(domain: Domain, topic: string, partition: number, firstOffset?: string): Promise<ExpiredRange | undefined>;
  /** Records that the partition is applied up to `nextOffset` (after an acknowledged flush). */
  applied(topic: string, partition: number, nextOffset: string): void;
  /** Forgets how far the partition was applied (the projector sought elsewhere): the next check asks ClickHouse. */
  forget(topic: string, partition: number): void;
  close(): Promise<void>;
}

export function expiryDetector(d: {
  kafka: Kafka;
  clickhouse: ClickHouseClient;
  database: string;
  consumer: string;
  clock: Clock;
  windowMarginMs: number;
}): ExpiryDetector {
  /** Next offset each partition is known to be applied up to; absent until the partition's first batch. */
  const known = new Map<string, bigint>();
  const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;
  /** One admin connection, shared by the checks of every partition; a failed read reconnects next time. */
  const admin = lazyAdmin(d.kafka);
  let closed = false;

  async function logStart(topic: string, partition: number): Promise<bigint> {
    if (closed) throw new Error('the expiry detector is closed');
    const offsets = await admin.use((a) => a.fetchTopicOffsets(topic));
    return BigInt(offsets.find((o) => o.partition === partition)?.low ?? '0');
  }

  const running = new Map<string, Promise<unknown>>();
  /** Runs checks of one partition one after the other. */
  function serial<T>(k: string, fn: () => Promise<T>): Promise<T> {
    const next = (running.get(k) ?? Promise.resolve()).catch(() => undefined).then(fn);
    running.set(k, next);
    void next.finally(() => running.get(k) === next && running.delete(k)).catch(() => undefined);
    return next;
  }

  async function checkNow(domain: Domain, topic: string, partition: number, firstOffset?: string): Promise<ExpiredRange | undefined> {
    const first = firstOffset === undefined ? undefined : BigInt(firstOffset);
    const expected = known.get(key(topic, partition));
    if (expected !== undefined && first !== undefined && first <= expected) return undefined;
    // The partition's first batch here, a jump, or an assignment: ask ClickHouse how far it was
    // applied (another member may have moved it on since, which is no gap).
    // What this member already applied or reported counts too (a range reported but not flushed yet).
    const applied = (await readCheckpoints(d.clickhouse, d.database, d.consumer, topic)).find((p) => p.partition === partition);
    const checkpoint = applied?.nextOffset ?? 0n;
    const from = expected !== undefined && expected > checkpoint ? expected : checkpoint;
    known.set(key(topic, partition), from);
    if (first !== undefined && first <= from) return undefined;
    const low = await logStart(topic, partition);
    // A gap above the log start is one Kafka made on purpose (transaction markers, compaction): only
    // the log start moving past what was applied means records were lost. The personal topics are
    // compacted (cleanup.policy=compact,delete: src/infra/kafka/topicConfigs.ts), and compaction removes
    // records inside the log (superseded versions, erased keys) without moving the log start offset,
    // which only retention (delete) and DeleteRecords advance; so an erasure's compaction is never
    // reported as expiry, and retention on the same topic still is.
    if (from >= low) return undefined;
    const to = first !== undefined && first < low ? first : low;
    // Reported once: the next check of this partition starts from the end of the range.
    known.set(key(topic, partition), to);
    const now = d.clock.now().getTime();
    return {
      domain,
      topic,
      partition,
      fromOffset: from.toString(),
      toOffset: to.toString(),
      windowFromMs: Math.max(0, (applied?.sourceCommitMs ?? 0) - d.windowMarginMs),
      windowToMs: now,
      detectedAtMs: now,
    };
  }

  return {
    check: (domain, topic, partition, firstOffset) => serial(key(topic, partition), () => checkNow(domain, topic, partition, firstOffset)),
    applied(topic, partition, nextOffset) {
      const k = key(topic, partition);
      const next = BigInt(nextOffset);
      if ((known.get(k) ?? -1n) < next) known.set(k, next);
    },
    forget(topic, partition) {
      known.delete(key(topic, partition));
    },
    async close() {
      closed = true;
      await Promise.allSettled([...running.values()]);
      await admin.close();
    },
  };
}
