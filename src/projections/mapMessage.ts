// One Kafka message -> the row it projects to, or the dead letter that replaces it. Pure; the
// projector calls it for every message and never lets a bad one hold its partition back.
import type { Domain } from '../publication/event';
import type { Topics } from '../infra/kafka/fromKafka';
import { decodeEnvelope } from './decode/envelope';
import { mapFitnessEvent } from './fitness/mapFitnessEvent';
import { mapOrderEvent } from './orders/mapOrderEvent';
import type { DeadLetter, ProjectedRow } from './rows';

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

export function mapMessage(m: ConsumedMessage, domain: Domain, ingestedAtMs: number): Mapped {
  const at = { kafkaPartition: m.partition, kafkaOffset: m.offset };
  const envelope = decodeEnvelope(m.value, domain);
  let failure: { reason: DeadLetter['reason']; detail: string };
  if (!envelope.ok) failure = envelope;
  else if (domain === 'fitness') {
    const r = mapFitnessEvent(envelope.value, at, ingestedAtMs);
    if (r.ok) return { kind: 'row', projected: { table: 'fitness_results', row: r.value } };
    failure = r;
  } else {
    const r = mapOrderEvent(envelope.value, at, ingestedAtMs);
    if (r.ok) return { kind: 'row', projected: { table: 'orders', row: r.value } };
    failure = r;
  }
  return {
    kind: 'dead',
    deadLetter: {
      domain,
      reason: failure.reason,
      detail: failure.detail,
      sourceTopic: m.topic,
      sourcePartition: m.partition,
      sourceOffset: m.offset,
      key: m.key,
      value: m.value,
      headers: plainHeaders(m.headers),
    },
  };
}
