// Consistency tokens: what a mutation hands back so its writer can later ask a read to include that
// write ("read your own writes"). A token names MEMBERSHIP, not a position: the (domain, aggregate id,
// version) pairs the mutation wrote, plus the writer's token subject. Kafka offsets or commit times
// would tie a token to one topic layout and say nothing about which rows matter; pairs are exactly
// what the projection's max(version) per id can be compared with.
//
// Wire form: `ct1.<base64url JSON>.<base64url HMAC-SHA256>`; the MAC covers the version prefix and the
// payload, so a client can neither forge one nor widen one into a scan (more ids, another subject).
// Bounded: at most MAX_TOKEN_CHARS characters and MAX_WRITES pairs, checked before any JSON is parsed.
// Every refusal is the same VALIDATION_FAILED, whether the token is malformed, forged, tampered or
// another caller's, so a refusal reveals nothing about whose it was. A domain is written as its
// module's tokenCode (src/domains/<d>/module.ts); a code no registered module has is such a refusal.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../../shared/errors';
import type { Domain } from '../../publication/event';
import { domainModule, domainModules } from '../../domains/registry';

/** One version a mutation wrote. */
export interface WrittenVersion {
  domain: Domain;
  aggregateId: string;
  version: number;
}

export interface ConsistencyClaim {
  subject: string;
  writes: WrittenVersion[];
}

const PREFIX = 'ct1';
/** Longest token accepted (a mutation's token is ~150 characters; a combined one of MAX_WRITES pairs fits). */
export const MAX_TOKEN_CHARS = 4096;
/** Most (domain, aggregate, version) pairs one token, or the tokens of one read together, may name. */
export const MAX_WRITES = 64;
const MAX_ID_CHARS = 128;
const MAX_SUBJECT_CHARS = 256;
/** The domain a token code names (each domain module's tokenCode); undefined: no registered domain. */
const domainOfCode = (code: string): Domain | undefined => domainModules().find((m) => m.tokenCode === code)?.name;

/** The one refusal, for every kind of bad token (the field names where it came from). */
export const invalidToken = (field: string) => new ValidationError(field, 'invalid consistency token');

export interface ConsistencyTokenCodec {
  /** A token naming `writes` for `subject` (pairs of one aggregate keep the newest version). */
  issue(subject: string, writes: readonly WrittenVersion[]): string;
  /** The pairs of a token this caller issued; VALIDATION_FAILED for anything else. */
  verify(token: string, subject: string, field?: string): WrittenVersion[];
  /** The pairs of several tokens of one caller, merged (newest version per aggregate), at most MAX_WRITES. */
  verifyAll(tokens: readonly string[], subject: string, field?: string): WrittenVersion[];
  /** One token naming everything the given tokens name (a client may also pass them separately). */
  combine(tokens: readonly string[], subject: string): string;
}

/** Newest version per (domain, aggregate), in first-seen order. */
export function mergeWrites(writes: readonly WrittenVersion[]): WrittenVersion[] {
  const by = new Map<string, WrittenVersion>();
  for (const w of writes) {
    const key = `${w.domain}\u0000${w.aggregateId}`;
    const seen = by.get(key);
    if (!seen || seen.version < w.version) by.set(key, { domain: w.domain, aggregateId: w.aggregateId, version: w.version });
  }
  return [...by.values()];
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const B64URL = /^[A-Za-z0-9_-]+$/;

function validWrite(x: unknown): WrittenVersion | undefined {
  if (!Array.isArray(x) || x.length !== 3) return undefined;
  const [d, id, v] = x as unknown[];
  const domain = typeof d === 'string' ? domainOfCode(d) : undefined;
  if (!domain || typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_CHARS) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) return undefined;
  return { domain, aggregateId: id, version: v };
}

export function consistencyTokenCodec(key: Buffer): ConsistencyTokenCodec {
  if (key.length < 32) throw new Error('a consistency token key has at least 32 bytes');
  const mac = (signed: string) => createHmac('sha256', key).update(signed).digest();

  function issue(subject: string, writes: readonly WrittenVersion[]): string {
    const merged = mergeWrites(writes);
    if (merged.length === 0 || merged.length > MAX_WRITES)
      throw new ValidationError('consistencyToken', `a token names 1-${MAX_WRITES} writes`);
    if (subject.length > MAX_SUBJECT_CHARS) throw new ValidationError('consistencyToken', 'the token subject is too long');
    const payload = b64(JSON.stringify({ s: subject, w: merged.map((w) => [domainModule(w.domain).tokenCode, w.aggregateId, w.version]) }));
    const signed = `${PREFIX}.${payload}`;
    const token = `${signed}.${b64(mac(signed))}`;
    if (token.length > MAX_TOKEN_CHARS) throw new ValidationError('consistencyToken', 'the token would be too long');
    return token;
  }

  function verify(token: string, subject: string, field = 'consistencyToken'): WrittenVersion[] {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) throw invalidToken(field);
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== PREFIX || !B64URL.test(parts[1]!) || !B64URL.test(parts[2]!)) throw invalidToken(field);
    const given = Buffer.from(parts[2]!, 'base64url');
    const expected = mac(`${parts[0]}.${parts[1]}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidToken(field);
    // Authentic from here on: the shape is still checked (a key shared with an older build, say).
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    } catch {
      throw invalidToken(field);
    }
    const o = body as { s?: unknown; w?: unknown };
    if (typeof o !== 'object' || o === null || typeof o.s !== 'string' || !Array.isArray(o.w)) throw invalidToken(field);
    if (o.w.length === 0 || o.w.length > MAX_WRITES) throw invalidToken(field);
    // Another caller's token is refused exactly like a forged one.
    if (o.s !== subject) throw invalidToken(field);
    const writes = o.w.map(validWrite);
    if (writes.some((w) => !w)) throw invalidToken(field);
    return writes as WrittenVersion[];
  }

  function verifyAll(tokens: readonly string[], subject: string, field = 'consistency.atLeast'): WrittenVersion[] {
    if (tokens.length === 0 || tokens.length > MAX_WRITES) throw new ValidationError(field, `give 1-${MAX_WRITES} consistency tokens`);
    const merged = mergeWrites(tokens.flatMap((t) => verify(t, subject, field)));
    if (merged.length > MAX_WRITES) throw new ValidationError(field, `the tokens name more than ${MAX_WRITES} writes together`);
    return merged;
  }

  return {
    issue,
    verify,
    verifyAll,
    combine: (tokens, subject) => issue(subject, verifyAll(tokens, subject, 'consistencyToken')),
  };
}
