// The Kafka store of an erasure ('kafka' on the certificate). The personal topics (the events topic of a
// domain with an erasure part, and the dead-letter topic) are compacted (src/infra/kafka/topicConfigs.ts):
// a tombstone (null value) for an aggregate key makes compaction remove every older record of that key,
// once the tombstone's segment is closed (the active segment is never compacted) and the cleaner ran
// (within max.compaction.lag.ms). erase() therefore:
//   1 scans both topics from the earliest offset (scanTopics.ts) for the job's aggregate keys (and any key
//     whose record names the subject with an event time before the erasure started);
//   2 writes a tombstone for each key whose newest record still has a value (once: a key whose newest
//     record is already a tombstone gets none; an event the relay published after the tombstone gets another);
//   3 closes the segments: a segment rolls when a record arrives segment.ms after its first one, so for each
//     partition still holding a value of the keys, once segment.ms has passed since the newest tombstone
//     there and nothing has been appended since, it writes a roll marker to that partition: key
//     `erasure-roll:<erasureId>`, value null (itself a tombstone, so it compacts away too; it names no person);
//   4 answers done only when the scan finds no record of the keys with a value.
// Every step is derived from what the topics hold, so a call after a crash, or a repeated one, does exactly
// what is still missing. Records go through the relay's producer (fromKafkaProducer: kafkajs' default
// partitioner), so a tombstone lands in the partition of the records it supersedes; a roll marker names
// its partition. verify() is a read-only scan counting readable traces: a value under one of the keys, or
// an event whose data names the subject with an event time before the erasure started (a student who
// came back after it has new aggregate ids and later event times: not the request's business).
// Mode 'pseudonymise' (a customer's orders: replacement records instead of tombstones on the events
// topic): kafkaPseudonymisation.ts, with this file's scan, producer and roll markers.
// Nothing personal is logged or put into a note or an error: notes carry counts only.
import type { Kafka, Message } from 'kafkajs';
import type { ErasureJob, StoreErasure, StoreSearch, StoreStepResult } from '../../domains/contract/erasure';
import { fromKafkaProducer } from '../../infra/kafka/producer';
import { scanTopics, searchedName, type ScannedRecord } from '../../infra/kafka/scanTopics';
import type { Clock } from '../../shared/clock';
import type { Domain } from '../../shared/domain';
import { kafkaPseudonymisation } from './kafkaPseudonymisation';
import { namesSubject } from './kafkaTraces';

export interface KafkaErasureDeps {
  kafka: Kafka;
  topics: { events(domain: Domain): string; deadLetter: string };
  /** The event data field naming the subject (the domain's DomainErasure.subjectField). */
  subjectField(domain: Domain): string;
  clock: Clock;
  /** segment.ms of the personal topics (settings.kafkaCompactionSegmentMs): when a roll marker may close a segment. */
  segmentMs: number;
  /** Bound of one scan (default 60 s). */
  scanTimeoutMs?: number;
  /** Prefix of the scans' throw-away consumer groups (default 'tidemark-erasure'). */
  groupPrefix?: string;
}

/** The key of the record that closes a partition's segment for an erasure (non-personal). */
export const rollMarkerKey = (erasureId: string): string => `erasure-roll:${erasureId}`;

interface PartitionState {
  /** Records of the job's keys that still carry a value. */
  remaining: number;
  /** Newest timestamp of a tombstone of the job's keys. */
  newestTombstoneMs: number;
  /** Newest timestamp of any record. */
  newestMs: number;
}

export function kafkaErasure(d: KafkaErasureDeps): StoreErasure {
  const topicsOf = (job: ErasureJob) => [...new Set([d.topics.events(job.domain), d.topics.deadLetter])];
  const scan = (topics: string[], each: (r: ScannedRecord) => void) =>
    scanTopics(d.kafka, topics, each, { groupPrefix: d.groupPrefix ?? 'tidemark-erasure', timeoutMs: d.scanTimeoutMs });

  const send = async (byTopic: Map<string, Message[]>) => {
    const producer = fromKafkaProducer(d.kafka);
    await producer.connect();
    try {
      await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
    } finally {
      await producer.disconnect();
    }
  };
  const pseudonymisation = kafkaPseudonymisation({
    eventsTopic: (job) => d.topics.events(job.domain),
    deadLetterTopic: d.topics.deadLetter,
    subjectField: (job) => d.subjectField(job.domain),
    scan,
    send,
    rollMarker: (job, partition, timestamp) => ({ key: rollMarkerKey(job.erasureId), value: null, partition, timestamp }),
    clock: d.clock,
    segmentMs: d.segmentMs,
  });

  async function erase(job: ErasureJob): Promise<StoreStepResult> {
    if (job.mode === 'pseudonymise') return pseudonymisation.erase(job);
    const ids = new Set(job.aggregateIds);
    const field = d.subjectField(job.domain);
    const before = job.startedAt.getTime();
    const topics = topicsOf(job);
    /** Per topic and key: whether its newest record has a value. */
    const newest = new Map<string, { topic: string; key: string; hasValue: boolean; partition: number }>();
    const partitions = new Map<string, PartitionState & { topic: string; partition: number }>();
    await scan(topics, (r) => {
      const pk = `${r.topic}\u0000${r.partition}`;
      const p = partitions.get(pk) ?? { topic: r.topic, partition: r.partition, remaining: 0, newestTombstoneMs: 0, newestMs: 0 };
      partitions.set(pk, p);
      p.newestMs = Math.max(p.newestMs, r.timestampMs);
      const key = r.key?.toString('utf8');
      if (key === undefined) return;
      // A record that names the subject under a key the source no longer knew (a dead letter of a lost
      // event) is the request's business too: its key is tombstoned like the collected ones.
      if (!ids.has(key) && r.value !== null && namesSubject(r.value, field, job.subjectId, before)) ids.add(key);
      if (!ids.has(key)) return;
      if (r.value === null) p.newestTombstoneMs = Math.max(p.newestTombstoneMs, r.timestampMs);
      else p.remaining++;
      newest.set(`${r.topic}\u0000${key}`, { topic: r.topic, key, hasValue: r.value !== null, partition: r.partition });
    });
    const remaining = [...partitions.values()].filter((p) => p.remaining > 0);
    const left = remaining.reduce((n, p) => n + p.remaining, 0);
    if (left === 0) return { affected: 0, done: true, note: `no record of the ${ids.size} aggregates left on ${topics.length} topics` };

    const nowMs = d.clock.now().getTime();
    const timestamp = String(nowMs);
    const byTopic = new Map<string, Message[]>();
    const add = (topic: string, m: Message) => byTopic.set(topic, [...(byTopic.get(topic) ?? []), m]);
    const tombstoned = new Set<string>();
    for (const n of newest.values()) {
      if (!n.hasValue) continue;
      add(n.topic, { key: n.key, value: null, timestamp });
      tombstoned.add(`${n.topic}\u0000${n.partition}`);
    }
    let rolled = 0;
    for (const p of remaining) {
      // A tombstone written now starts its wait; otherwise the segment holding the newest one may close
      // once segment.ms passed since it, unless a later record (another write, an earlier marker) already closed it.
      if (tombstoned.has(`${p.topic}\u0000${p.partition}`) || p.newestTombstoneMs === 0) continue;
      const closesAt = p.newestTombstoneMs + d.segmentMs;
      if (nowMs <= closesAt || p.newestMs > closesAt) continue;
      add(p.topic, { key: rollMarkerKey(job.erasureId), value: null, partition: p.partition, timestamp });
      rolled++;
    }
    const tombstones = [...byTopic.values()].reduce((n, ms) => n + ms.length, 0) - rolled;
    if (byTopic.size) await send(byTopic);
    return {
      affected: tombstones,
      done: false,
      note:
        `waiting for compaction: ${left} records in ${remaining.length} partitions` +
        (tombstones ? `; wrote ${tombstones} tombstones` : '') +
        (rolled ? `; rolled ${rolled} segments` : ''),
    };
  }

  async function verify(job: ErasureJob): Promise<StoreSearch> {
    if (job.mode === 'pseudonymise') return pseudonymisation.verify(job);
    const ids = new Set(job.aggregateIds);
    const field = d.subjectField(job.domain);
    const before = job.startedAt.getTime();
    let found = 0;
    const scanned = await scan(topicsOf(job), (r) => {
      if (r.value === null) return;
      const key = r.key?.toString('utf8');
      if ((key !== undefined && ids.has(key)) || namesSubject(r.value, field, job.subjectId, before)) found++;
    });
    return { store: 'kafka', searched: scanned.map(searchedName), searchedAt: d.clock.now(), found };
  }

  return { store: 'kafka', erase, verify };
}
