// The Kafka store of an erasure in mode 'pseudonymise' (a customer: the order events stay, the customer's
// identifier in them is replaced by pseudonymOf(job)). Driven by kafkaErasure.ts (same topics, scan,
// producer and roll markers). erase():
//   1 scans both topics from the earliest offset for the job's aggregate keys (and any key whose record
//     names the subject with an event time before the erasure started);
//   2 events topic: for each such key whose NEWEST record with a value still names the subject, produces
//     a replacement: same key and partition, that record's value with data[subjectField] = the pseudonym
//     (same eventId and version: the same event, re-identified), its headers plus
//     `tidemark-pseudonymised: <erasureId>`. The projector applies it like a redelivery of the version it
//     holds (ReplacingMergeTree(version): equal versions, the last insert wins), and rewrites it anyway
//     through the guard. Compaction then removes the key's older records (the replacement is the newest).
//     Dead-letter topic: the keys are tombstoned, as a deletion does (a dead letter is the event verbatim);
//   3 closes the segments with roll markers (kafkaErasure.ts) once segment.ms passed since the newest
//     superseding record (a replacement or a tombstone) of a partition that still holds an old one;
//   4 answers done only when no record with a value names the subject (both topics, any event time).
// verify(): records with a value naming the subject with an event time before startedAt (a customer
// who came back has later event times and new orders). Notes carry counts only.
import type { Message } from 'kafkajs';
import { pseudonymOf, type ErasureJob, type StoreSearch, type StoreStepResult } from '../../domains/contract/erasure';
import { searchedName, type ScannedRecord, type ScannedTopic } from '../../infra/kafka/scanTopics';
import type { Clock } from '../../shared/clock';
import { domainModule } from '../../domains/registry';
import { namesSubject } from './kafkaTraces';

/** The header a replacement record carries: which erasure wrote it (no personal value). */
export const PSEUDONYMISED_HEADER = 'tidemark-pseudonymised';

export interface PseudonymisationParts {
  eventsTopic(job: ErasureJob): string;
  deadLetterTopic: string;
  subjectField(job: ErasureJob): string;
  scan(topics: string[], each: (r: ScannedRecord) => void): Promise<ScannedTopic[]>;
  send(byTopic: Map<string, Message[]>): Promise<void>;
  /** The roll marker of a partition (kafkaErasure.rollMarkerKey). */
  rollMarker(job: ErasureJob, partition: number, timestamp: string): Message;
  clock: Clock;
  segmentMs: number;
}

interface Newest {
  topic: string;
  key: string;
  partition: number;
  value: Buffer | null;
  headers: ScannedRecord['headers'];
}

/**
 * The event with data[field] replaced (and each of `writerFields` that holds the subject's id too: a
 * schema version 2 order placed by the customer itself names it in changedBy), or undefined when the
 * value is no event naming the subject.
 */
export function replacedValue(
  value: Buffer,
  field: string,
  subjectId: string,
  pseudonym: string,
  writerFields: readonly string[] = [],
): string | undefined {
  if (!namesSubject(value, field, subjectId, Infinity)) return undefined;
  const e = JSON.parse(value.toString('utf8')) as { data: Record<string, unknown> };
  const writers = Object.fromEntries(writerFields.filter((w) => e.data[w] === e.data[field]).map((w) => [w, pseudonym]));
  return JSON.stringify({ ...e, data: { ...e.data, ...writers, [field]: pseudonym } });
}

export function kafkaPseudonymisation(x: PseudonymisationParts) {
  async function erase(job: ErasureJob): Promise<StoreStepResult> {
    const ids = new Set(job.aggregateIds);
    const field = x.subjectField(job);
    const events = x.eventsTopic(job);
    const topics = [...new Set([events, x.deadLetterTopic])];
    const before = job.startedAt.getTime();
    const pseudonym = pseudonymOf(job);
    const newest = new Map<string, Newest>();
    const partitions = new Map<string, { topic: string; partition: number; remaining: number; supersededMs: number; newestMs: number }>();
    await x.scan(topics, (r) => {
      const pk = `${r.topic}\u0000${r.partition}`;
      const p = partitions.get(pk) ?? { topic: r.topic, partition: r.partition, remaining: 0, supersededMs: 0, newestMs: 0 };
      partitions.set(pk, p);
      p.newestMs = Math.max(p.newestMs, r.timestampMs);
      const key = r.key?.toString('utf8');
      if (key === undefined) return;
      if (!ids.has(key) && r.value !== null && namesSubject(r.value, field, job.subjectId, before)) ids.add(key);
      if (!ids.has(key)) return;
      // A record of the keys still readable as the subject's: any value on the dead-letter topic, a value
      // naming the subject on the events topic. A replacement or a tombstone supersedes the older ones.
      const readable = r.value !== null && (r.topic !== events || namesSubject(r.value, field, job.subjectId, Infinity));
      if (readable) p.remaining++;
      else p.supersededMs = Math.max(p.supersededMs, r.timestampMs);
      newest.set(`${r.topic}\u0000${key}`, { topic: r.topic, key, partition: r.partition, value: r.value, headers: r.headers });
    });
    const remaining = [...partitions.values()].filter((p) => p.remaining > 0);
    const left = remaining.reduce((n, p) => n + p.remaining, 0);
    if (left === 0) return { affected: 0, done: true, note: `no record naming the subject left on ${topics.length} topics` };

    const nowMs = x.clock.now().getTime();
    const timestamp = String(nowMs);
    const byTopic = new Map<string, Message[]>();
    const add = (topic: string, m: Message) => byTopic.set(topic, [...(byTopic.get(topic) ?? []), m]);
    const written = new Set<string>();
    for (const n of newest.values()) {
      if (n.value === null) continue;
      if (n.topic === events) {
        const value = replacedValue(n.value, field, job.subjectId, pseudonym, domainModule(job.domain).erasure?.writerFields);
        if (value === undefined) continue;
        add(n.topic, {
          key: n.key,
          value,
          partition: n.partition,
          timestamp,
          headers: { ...n.headers, [PSEUDONYMISED_HEADER]: job.erasureId },
        });
      } else add(n.topic, { key: n.key, value: null, partition: n.partition, timestamp });
      written.add(`${n.topic}\u0000${n.partition}`);
    }
    let rolled = 0;
    for (const p of remaining) {
      if (written.has(`${p.topic}\u0000${p.partition}`) || p.supersededMs === 0) continue;
      const closesAt = p.supersededMs + x.segmentMs;
      if (nowMs <= closesAt || p.newestMs > closesAt) continue;
      add(p.topic, x.rollMarker(job, p.partition, timestamp));
      rolled++;
    }
    const superseding = [...byTopic.values()].reduce((n, ms) => n + ms.length, 0) - rolled;
    if (byTopic.size) await x.send(byTopic);
    return {
      affected: superseding,
      done: false,
      note:
        `waiting for compaction: ${left} records in ${remaining.length} partitions` +
        (superseding ? `; wrote ${superseding} replacements and tombstones` : '') +
        (rolled ? `; rolled ${rolled} segments` : ''),
    };
  }

  async function verify(job: ErasureJob): Promise<StoreSearch> {
    const field = x.subjectField(job);
    const before = job.startedAt.getTime();
    let found = 0;
    const scanned = await x.scan([...new Set([x.eventsTopic(job), x.deadLetterTopic])], (r) => {
      if (r.value !== null && namesSubject(r.value, field, job.subjectId, before)) found++;
    });
    return { store: 'kafka', searched: scanned.map(searchedName), searchedAt: x.clock.now(), found };
  }

  return { erase, verify };
}
