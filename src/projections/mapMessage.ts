// One Kafka message -> the row it projects to, or the dead letter that replaces it. Pure; the
// projector calls it for every message and never lets a bad one hold its partition back.
import type { Domain } from '../publication/event';
import type { Topics } from '../infra/kafka/fromKafka';
import { checkEnvelope, parseValue, type Decoded } from './decode/envelope';
import { isValidFitnessEvent, mapFitnessEvent, mapValidFitnessEvent } from './fitness/mapFitnessEvent';
import { isValidOrderEvent, mapOrderEvent, mapValidOrderEvent } from './orders/mapOrderEvent';
import type { DeadLetter, KafkaPosition, ProjectedRow } from './rows';

export interface ConsumedMessage {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
}

export type Mapped = { kind: 'row'; projected: ProjectedRow } | { kind: 'dead'; deadLetter: DeadLetter };

/** The domain whose events a projected topic carries (the projector subscribes to exactly these). */
export function projectedTopics(t: Topics): Map<string, Domain> {
  return new Map<string, Domain>([
    [t.fitnessResults, 'fitness'],
    [t.orders, 'orders'],
  ]);
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
 * One compiled check of every schema rule first (the common case: a valid event, validated without a
 * zod pass); an event that fails it is decoded step by step, which names the first thing wrong.
 */
function projectedRow(json: unknown, domain: Domain, at: KafkaPosition, ingestedAtMs: number): Decoded<ProjectedRow> {
  if (domain === 'fitness') {
    const r = isValidFitnessEvent(json)
      ? mapValidFitnessEvent(json, at, ingestedAtMs)
      : andThen(checkEnvelope(json, domain), (e) => mapFitnessEvent(e, at, ingestedAtMs));
    return r.ok ? { ok: true, value: { table: 'fitness_results', row: r.value } } : r;
  }
  const r = isValidOrderEvent(json)
    ? mapValidOrderEvent(json, at, ingestedAtMs)
    : andThen(checkEnvelope(json, domain), (e) => mapOrderEvent(e, at, ingestedAtMs));
  return r.ok ? { ok: true, value: { table: 'orders', row: r.value } } : r;
}

const andThen = <A, B>(d: Decoded<A>, next: (a: A) => Decoded<B>): Decoded<B> => (d.ok ? next(d.value) : d);

export function mapMessage(m: ConsumedMessage, domain: Domain, ingestedAtMs: number): Mapped {
  const at = { kafkaPartition: m.partition, kafkaOffset: m.offset };
  const json = parseValue(m.value);
  const mapped = json.ok ? projectedRow(json.value, domain, at, ingestedAtMs) : json;
  if (mapped.ok) return { kind: 'row', projected: mapped.value };
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
