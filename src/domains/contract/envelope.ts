// Decoding a Kafka message into an event envelope, the part of the event contract every domain's
// decoder shares. Pure: bytes in, envelope or a dead-letter reason out. Every check names what failed
// by field path and check, never by value (decoded.ts).
import { DOMAIN_NAME } from '../../shared/domain';
import { z } from 'zod';
import type { Domain, EventEnvelope } from '../../publication/event';
import { describeIssues, rejected, type Decoded } from './decoded';

export const envelopeSchema = z.object({
  eventId: z.string().min(1).max(200),
  // A registered domain's name (the registry checks names; the topic says which one is expected).
  domain: z.string().regex(DOMAIN_NAME),
  type: z.string().min(1).max(100),
  aggregateId: z.string().min(1).max(200),
  version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  schemaVersion: z.number().int(),
  isDeleted: z.boolean(),
  occurredAt: z.string().min(1).max(64),
  shard: z.number().int().min(0).max(65535),
  data: z.record(z.string(), z.unknown()),
});

/** The message value as JSON, or why it is not. */
export function parseValue(value: Buffer | null): Decoded<unknown> {
  if (value === null || value.length === 0) return rejected('EMPTY_MESSAGE', 'message has no value');
  try {
    return { ok: true, value: JSON.parse(value.toString('utf8')) as unknown };
  } catch {
    return rejected('MALFORMED_JSON', 'value is not JSON');
  }
}

/**
 * The stepwise envelope check: the first thing wrong with it, by field path and check. A schema
 * version outside 1..`reads` (a later deploy's, a foreign producer's) is never guessed at.
 */
export function checkEnvelope(json: unknown, expected: Domain, reads: number): Decoded<EventEnvelope> {
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) return rejected('INVALID_ENVELOPE', describeIssues(parsed.error.issues));
  const e = parsed.data;
  if (e.schemaVersion < 1 || e.schemaVersion > reads)
    return rejected('UNSUPPORTED_SCHEMA_VERSION', `schemaVersion ${e.schemaVersion} is not one this reader knows (1..${reads})`);
  if (e.domain !== expected) return rejected('WRONG_TOPIC', `a ${e.domain} event on the ${expected} topic`);
  return { ok: true, value: e as EventEnvelope };
}

/**
 * Everything the stepwise decoding checks by schema for one domain's events of one schema version
 * (envelope, that version, expected domain, known event type, and that version's data), as one
 * schema: what the projector's compiled fast path checks in one pass.
 */
export function validEventSchema<D extends z.ZodType>(domain: Domain, eventTypes: ReadonlySet<string>, data: D, schemaVersion: number) {
  return envelopeSchema.extend({
    domain: z.literal(domain),
    schemaVersion: z.literal(schemaVersion),
    type: z.literal([...eventTypes]),
    data,
  });
}
