// One Kafka message -> the row it projects to, or the dead letter that replaces it. Pure; the
// projector calls it for every message and never lets a bad one hold its partition back. The
// decoding itself is the domain's (its decoder: src/domains/<domain>/projection/); this file only
// finds the domain's projection and turns a rejection into a dead letter.
import { parseValue } from '../domains/contract/envelope';
import { projectedDomains, projectionOf } from '../domains/projections';
import { topicOf, type Topics } from '../infra/kafka/fromKafka';
import type { Domain } from '../publication/event';
import { readsOf, type ReaderVersions } from './readerVersions';
import type { DeadLetter, ProjectedRow } from './rows';

export interface ConsumedMessage {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
}

/**
 * A row, a dead letter, or a tombstone: a record without a value, which an erasure writes per erased
 * aggregate key (and per partition it rolls) on a compacted topic (src/erasure/stores/kafkaErasure.ts).
 * A tombstone projects to nothing and is not an error: the projector skips it and its offset advances.
 * The erased aggregate's rows leave ClickHouse by the erasure's own store, not through this stream.
 */
export type Mapped = { kind: 'row'; projected: ProjectedRow } | { kind: 'dead'; deadLetter: DeadLetter } | { kind: 'tombstone' };

/** The domain whose events a projected topic carries (the projector subscribes to exactly these). */
export function projectedTopics(t: Topics): Map<string, Domain> {
  return new Map<string, Domain>(projectedDomains().map((p) => [topicOf(t, p.domain), p.domain]));
}

function plainHeaders(h: ConsumedMessage['headers']): Record<string, Buffer | string> {
  const out: Record<string, Buffer | string> = {};
  for (const [k, v] of Object.entries(h ?? {})) {
    if (v === undefined) continue;
    out[k] = Array.isArray(v) ? (v[v.length - 1] ?? '') : v;
  }
  return out;
}

/** The projector's mapping as a value (the projector and the dead-letter replay take it injected). */
export type MessageMapper = (m: ConsumedMessage, domain: Domain, ingestedAtMs: number) => Mapped;

/**
 * The mapping of a reader that knows versions up to `versions[domain]` (EVENT_SCHEMA_VERSION_CAP:
 * readerVersions.ts): a newer event is dead-lettered UNSUPPORTED_SCHEMA_VERSION, and replays once the
 * replaying process knows it. The projector and the dead-letter replay are given the same one.
 */
export function mapMessageReading(versions: ReaderVersions): MessageMapper {
  return (m, domain, ingestedAtMs) => mapMessage(m, domain, ingestedAtMs, readsOf(versions, domain));
}

/** `reads`: the newest schema version accepted (the domain contract's newest when omitted). */
export function mapMessage(m: ConsumedMessage, domain: Domain, ingestedAtMs: number, reads?: number): Mapped {
  // A replay of the topic from its earliest offset (a new consumer group, a reset) reads what compaction
  // left: per key the latest record, a tombstone for an erased one, which is skipped here too.
  if (m.value === null) return { kind: 'tombstone' };
  const at = { kafkaPartition: m.partition, kafkaOffset: m.offset };
  const projection = projectionOf(domain);
  const json = parseValue(m.value);
  const mapped = json.ok ? projection.decoder.decode(json.value, at, ingestedAtMs, reads) : json;
  if (mapped.ok) return { kind: 'row', projected: { projection, row: mapped.value } };
  return {
    kind: 'dead',
    deadLetter: {
      domain,
      reason: mapped.reason,
      detail: mapped.detail,
      sourceTopic: m.topic,
      sourcePartition: m.partition,
      sourceOffset: m.offset,
      key: m.key,
      value: m.value,
      headers: plainHeaders(m.headers),
    },
  };
}
