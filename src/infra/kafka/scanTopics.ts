// Reads topics from the earliest offset to the high watermark each partition had when the scan began,
// and hands every record to a callback: the erasure's verification (is anything of the person left?)
// and tests that check what a topic holds. A fresh consumer group per scan (never committed, so it
// leaves no offsets behind and nobody else's position moves) reads from the earliest offset; records
// appended after the scan began are not its business and are not passed on.
//
// When a partition is read: kafkajs' batch.lastOffset() is the last offset the fetch covered, including
// records compaction removed (an empty batch answers highWatermark - 1), so a partition whose newest
// records were compacted away still completes. A partition with nothing in it (high == low) is done at once.
// Bounded by timeoutMs: a scan that cannot finish fails with StoreUnavailableError('kafka'), never
// with a partial answer, since a verification must not count what it did not read.
import { randomUUID } from 'node:crypto';
import type { IHeaders, Kafka } from 'kafkajs';
import { StoreUnavailableError } from '../../shared/errors';

export interface ScannedRecord {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  /** The record's timestamp (ms since the epoch, CreateTime as the producer set it). */
  timestampMs: number;
  /** The record's headers (a pseudonymising erasure copies them onto the replacement record). */
  headers?: IHeaders;
}

/** What the scan read per topic: the partitions and the offsets up to which each was read. */
export interface ScannedTopic {
  topic: string;
  partitions: { partition: number; low: string; high: string }[];
}

export interface ScanOptions {
  /** Prefix of the throw-away consumer group's id (e.g. the client id). */
  groupPrefix?: string;
  timeoutMs?: number;
}

export async function scanTopics(
  kafka: Kafka,
  topics: readonly string[],
  each: (r: ScannedRecord) => void,
  opts: ScanOptions = {},
): Promise<ScannedTopic[]> {
  const admin = kafka.admin();
  await admin.connect();
  const scanned: ScannedTopic[] = [];
  try {
    for (const topic of topics) {
      const offsets = await admin.fetchTopicOffsets(topic);
      scanned.push({
        topic,
        partitions: offsets.map((o) => ({ partition: o.partition, low: o.low, high: o.high })).sort((a, b) => a.partition - b.partition),
      });
    }
  } finally {
    await admin.disconnect();
  }
  const key = (t: string, p: number) => `${t}\u0000${p}`;
  /** Partitions still to read, with the offset their last record has (high watermark - 1). */
  const open = new Map<string, bigint>();
  for (const t of scanned)
    for (const p of t.partitions) if (BigInt(p.high) > BigInt(p.low)) open.set(key(t.topic, p.partition), BigInt(p.high) - 1n);
  if (open.size === 0) return scanned;

  const consumer = kafka.consumer({ groupId: `${opts.groupPrefix ?? 'tidemark'}-scan-${randomUUID()}`, maxWaitTimeInMs: 200 });
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let timer: NodeJS.Timeout | undefined;
  await consumer.connect();
  try {
    for (const topic of new Set(scanned.map((t) => t.topic))) await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: true,
      eachBatch: async ({ batch }) => {
        const k = key(batch.topic, batch.partition);
        const last = open.get(k);
        if (last === undefined) return;
        for (const m of batch.messages) {
          if (BigInt(m.offset) > last) break;
          each({
            topic: batch.topic,
            partition: batch.partition,
            offset: m.offset,
            key: m.key ?? null,
            value: m.value ?? null,
            timestampMs: Number(m.timestamp),
            ...(m.headers ? { headers: m.headers } : {}),
          });
        }
        if (BigInt(batch.lastOffset()) >= last) {
          open.delete(k);
          if (open.size === 0) finish();
        }
      },
    });
    const timeoutMs = opts.timeoutMs ?? 60000;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const end = await Promise.race([finished.then(() => 'read' as const), timedOut]);
    if (end === 'timeout')
      throw new StoreUnavailableError(
        'kafka',
        new Error(`scan of ${topics.join(', ')} did not reach the high watermark in ${timeoutMs} ms`),
      );
    return scanned;
  } finally {
    if (timer) clearTimeout(timer);
    await consumer.disconnect();
  }
}

/** A scanned topic as a certificate names it: 'topic (partitions p0..p2 from earliest offset)'. */
export function searchedName(t: ScannedTopic): string {
  const ps = t.partitions.map((p) => p.partition);
  const range = ps.length === 0 ? 'no partitions' : `partitions p${Math.min(...ps)}..p${Math.max(...ps)}`;
  return `${t.topic} (${range} from earliest offset)`;
}
