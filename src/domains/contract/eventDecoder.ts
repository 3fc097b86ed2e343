// One decoder per domain: JSON value in, projection row or the first thing wrong out. The stepwise
// decoding (envelope, event type, data, the row's own checks) is composed here once for every domain;
// the domain supplies only its event types, its data schema and its row mapping.
//
// Fast path: one compiled check of every schema rule (compiledCheck.ts), the common case of a valid
// event validated without a zod pass. An event that fails it is decoded step by step, which names the
// first thing wrong; both paths end in the same row mapping, so they give the same row.
import { z } from 'zod';
import type { Domain, EventEnvelope } from '../../publication/event';
import { compiledCheck } from './compiledCheck';
import { describeIssues, rejected, type Decoded, type KafkaPosition } from './decoded';
import { checkEnvelope, validEventSchema } from './envelope';

export interface EventDecoder<Row> {
  readonly domain: Domain;
  /** The row of a JSON value: the compiled check first, the stepwise decoding when it fails. */
  decode(json: unknown, at: KafkaPosition, ingestedAtMs: number): Decoded<Row>;
  /** The stepwise decoding alone (what `decode` falls back to; tests compare the two). */
  stepwise(json: unknown, at: KafkaPosition, ingestedAtMs: number): Decoded<Row>;
}

export interface DecoderSpec<D extends z.ZodType, Row> {
  domain: Domain;
  /** How an unknown event type is named in the dead-letter detail ("fitness", "order"). */
  label: string;
  eventTypes: ReadonlySet<string>;
  data: D;
  /** The checks no schema expresses (exact decimals, storable times, envelope vs data) and the row. */
  row(e: EventEnvelope, d: z.output<D>, at: KafkaPosition, ingestedAtMs: number): Decoded<Row>;
}

export function eventDecoder<D extends z.ZodType, Row>(s: DecoderSpec<D, Row>): EventDecoder<Row> {
  const isValid = compiledCheck(validEventSchema(s.domain, s.eventTypes, s.data));
  const stepwise = (json: unknown, at: KafkaPosition, ingestedAtMs: number): Decoded<Row> => {
    const envelope = checkEnvelope(json, s.domain);
    if (!envelope.ok) return envelope;
    const e = envelope.value;
    if (!s.eventTypes.has(e.type)) return rejected('UNKNOWN_EVENT_TYPE', `${s.label} event type ${e.type.slice(0, 60)} is unknown`);
    const parsed = s.data.safeParse(e.data);
    if (!parsed.success)
      return rejected('INVALID_DATA', describeIssues(parsed.error.issues.map((i) => ({ ...i, path: ['data', ...i.path] }))));
    return s.row(e, parsed.data, at, ingestedAtMs);
  };
  return {
    domain: s.domain,
    stepwise,
    decode(json, at, ingestedAtMs) {
      // The compiled check accepts exactly what the stepwise decoding accepts, so `data` is already z.output<D>.
      if (isValid(json)) return s.row(json as EventEnvelope, (json as { data: z.output<D> }).data, at, ingestedAtMs);
      return stepwise(json, at, ingestedAtMs);
    },
  };
}
