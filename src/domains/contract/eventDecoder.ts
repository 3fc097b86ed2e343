// One decoder per domain: JSON value in, projection row or the first thing wrong out. The stepwise
// decoding (envelope, schema version, event type, data, upcasting, the row's own checks) is composed
// here once for every domain; the domain supplies only its event contract (eventContract.ts: the data
// schema of each version and the upcasters) and its row mapping of the newest version's data.
//
// A reader knows versions 1..`reads` (the newest of the contract unless a process is pinned lower,
// EVENT_SCHEMA_VERSION_CAP): an older event is upcast to the newest before its row is mapped, a newer
// one is dead-lettered as UNSUPPORTED_SCHEMA_VERSION and replayable once the reader knows it.
//
// Fast path: one compiled check per version of every schema rule (compiledCheck.ts), the common case
// of a valid event validated without a zod pass. An event that fails it is decoded step by step, which
// names the first thing wrong; both paths end in the same upcast and row mapping, so they give the
// same row.
import { z } from 'zod';
import type { Domain, EventEnvelope } from '../../publication/event';
import { compiledCheck } from './compiledCheck';
import { describeIssues, rejected, type Decoded, type KafkaPosition } from './decoded';
import { checkEnvelope, validEventSchema } from './envelope';
import { checkContract, newestVersion, upcast, type EventContract, type EventData } from './eventContract';

export interface EventDecoder<Row> {
  readonly domain: Domain;
  readonly contract: EventContract;
  /**
   * The row of a JSON value: the compiled check first, the stepwise decoding when it fails. `reads` is
   * the newest schema version this reader accepts (the contract's newest when omitted).
   */
  decode(json: unknown, at: KafkaPosition, ingestedAtMs: number, reads?: number): Decoded<Row>;
  /** The stepwise decoding alone (what `decode` falls back to; tests compare the two). */
  stepwise(json: unknown, at: KafkaPosition, ingestedAtMs: number, reads?: number): Decoded<Row>;
}

export interface DecoderSpec<D extends z.ZodType, Row> {
  contract: EventContract<D>;
  /** The checks no schema expresses (exact decimals, storable times, envelope vs data) and the row. */
  row(e: EventEnvelope, d: z.output<D>, at: KafkaPosition, ingestedAtMs: number): Decoded<Row>;
}

/** A contract of one version and no upcasters (a domain whose events never changed). */
export function singleVersionContract<D extends z.ZodType>(
  domain: Domain,
  label: string,
  eventTypes: ReadonlySet<string>,
  data: D,
): EventContract<D> {
  return { domain, label, eventTypes, versions: [data], upcasters: [] };
}

export function eventDecoder<D extends z.ZodType, Row>(s: DecoderSpec<D, Row>): EventDecoder<Row> {
  const c = s.contract;
  checkContract(c);
  const newest = newestVersion(c);
  const schemas = c.versions as readonly z.ZodType[];
  const isValid = schemas.map((data, i) => compiledCheck(validEventSchema(c.domain, c.eventTypes, data, i + 1)));
  const newestData = schemas[newest - 1]!;
  /** The newest version's data of a checked version-`v` event's data, or why it is not one. */
  const lifted = (data: EventData, v: number): Decoded<z.output<D>> => {
    if (v === newest) return { ok: true, value: data as z.output<D> };
    const parsed = newestData.safeParse(upcast(c, data, v));
    if (parsed.success) return { ok: true, value: parsed.data as z.output<D> };
    // An upcaster that does not produce valid newest data is a bug of this code base, named as such.
    return rejected('INVALID_DATA', `data upcast from version ${v}: ${describeIssues(parsed.error.issues)}`);
  };
  const stepwise = (json: unknown, at: KafkaPosition, ingestedAtMs: number, reads = newest): Decoded<Row> => {
    const envelope = checkEnvelope(json, c.domain, Math.min(reads, newest));
    if (!envelope.ok) return envelope;
    const e = envelope.value;
    if (!c.eventTypes.has(e.type)) return rejected('UNKNOWN_EVENT_TYPE', `${c.label} event type ${e.type.slice(0, 60)} is unknown`);
    const parsed = schemas[e.schemaVersion - 1]!.safeParse(e.data);
    if (!parsed.success)
      return rejected('INVALID_DATA', describeIssues(parsed.error.issues.map((i) => ({ ...i, path: ['data', ...i.path] }))));
    const data = lifted(parsed.data as EventData, e.schemaVersion);
    return data.ok ? s.row(e, data.value, at, ingestedAtMs) : data;
  };
  return {
    domain: c.domain,
    contract: c,
    stepwise,
    decode(json, at, ingestedAtMs, reads = newest) {
      const v = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
      // The compiled check accepts exactly what the stepwise decoding accepts for that version.
      if (Number.isInteger(v) && (v as number) >= 1 && (v as number) <= Math.min(reads, newest) && isValid[(v as number) - 1]!(json)) {
        const e = json as EventEnvelope;
        const data = lifted(e.data, e.schemaVersion);
        return data.ok ? s.row(e, data.value, at, ingestedAtMs) : data;
      }
      return stepwise(json, at, ingestedAtMs, reads);
    },
  };
}
