// The config entries of every Tidemark topic, personal or not. A topic that can hold a person's data
// (the events topic of a domain with an erasure part, and the dead-letter topic, which keeps rejected
// events of every domain verbatim) is compacted as well as time-limited: an erasure writes a tombstone
// (null value) per aggregate key, and compaction then removes every older record of that key once the
// tombstone's segment is closed, within segment.ms + max.compaction.lag.ms (docs/erasure.md).
// `compact,delete` keeps the retention bound of the other topics: compaction alone would keep every
// aggregate's latest record forever. Every record of such a topic must carry a key (the broker refuses
// a keyless record in a compacted topic): events are keyed by aggregate id, dead letters by the
// original key (src/projections/deadLetters.ts).
import type { KafkaTopicSettings } from '../../config/slices';
import type { Domain } from '../../shared/domain';

export interface TopicConfigEntry {
  name: string;
  value: string;
}

/** The entries a topic is created with, and altered to when it exists with other values. */
export function topicConfigEntries(s: KafkaTopicSettings, personal: boolean): TopicConfigEntry[] {
  // With acks=all, a write is acknowledged once this many replicas have it (docs/kafka-first.md);
  // events older than the retention are deleted (a projector stopped longer loses them: docs/projections.md).
  const entries: TopicConfigEntry[] = [
    { name: 'min.insync.replicas', value: String(s.kafkaMinInsyncReplicas) },
    { name: 'retention.ms', value: String(s.kafkaRetentionMs) },
  ];
  if (!personal) return entries;
  return [
    ...entries,
    { name: 'cleanup.policy', value: 'compact,delete' },
    // The active segment is never compacted: it closes after segment.ms (once a later record arrives,
    // which the erasure writes itself: src/erasure/stores/kafkaErasure.ts).
    { name: 'segment.ms', value: String(s.kafkaCompactionSegmentMs) },
    // A closed segment holding a superseded record is compacted within this lag, however clean the log is.
    { name: 'max.compaction.lag.ms', value: String(s.kafkaMaxCompactionLagMs) },
    { name: 'min.cleanable.dirty.ratio', value: String(s.kafkaMinCleanableDirtyRatio) },
  ];
}

/**
 * The topics that hold personal data: the events topics of `compactedDomains` (the domains with an
 * erasure part: registry's erasableDomains()) and, when there is any, the dead-letter topic.
 */
export function personalTopics(
  topics: { events: Readonly<Record<Domain, string>>; deadLetter: string },
  compactedDomains: readonly Domain[],
): Set<string> {
  const out = new Set<string>();
  for (const d of compactedDomains) {
    const t = topics.events[d];
    if (t) out.add(t);
  }
  if (out.size) out.add(topics.deadLetter);
  return out;
}

/** Whether two config values are the same setting (numbers compared as numbers: "0.010" is "0.01"). */
function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  const x = Number(a);
  const y = Number(b);
  return a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y) && x === y;
}

/** The wanted entries whose current value differs (or that are not set on the topic at all). */
export function differingEntries(wanted: readonly TopicConfigEntry[], current: ReadonlyMap<string, string>): TopicConfigEntry[] {
  return wanted.filter((w) => {
    const now = current.get(w.name);
    return now === undefined || !sameValue(now, w.value);
  });
}

/**
 * The full set to send with AlterConfigs (which replaces a topic's whole dynamic config: an entry left
 * out falls back to the broker default): the topic's own entries as they are, ours on top.
 */
export function mergedEntries(ownEntries: ReadonlyMap<string, string>, wanted: readonly TopicConfigEntry[]): TopicConfigEntry[] {
  const merged = new Map(ownEntries);
  for (const w of wanted) merged.set(w.name, w.value);
  return [...merged].map(([name, value]) => ({ name, value }));
}
