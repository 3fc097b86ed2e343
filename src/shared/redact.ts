// Error text that may be stored on a row or shown to an operator: a short, redacted summary. Raw
// exception messages can carry secrets (connection strings, tokens) or payload fragments; this keeps
// only a class/code and a sanitised, truncated message. And every log record (logger.ts): secret-named
// keys at any depth, drivers' SQL and bound values, quoted literals in error messages are removed.
import { replaceControlCharacters } from './controlCharacters';

const SECRET_PATTERNS: RegExp[] = [
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s/@]+:[^\s/@]+@/gi, // user:password@ in URLs
  /\b(password|passwd|pwd|secret|token|api[_-]?key|authorization|bearer)\b\s*[:=]?\s*\S+/gi,
  /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, // JWTs
  /\{.*\}/gs, // anything JSON-shaped (payload fragments)
];

export interface SafeErrorSummary {
  code: string;
  summary: string;
}

export function summarizeError(err: unknown, maxLength = 200): SafeErrorSummary {
  const e = err as { name?: unknown; code?: unknown; type?: unknown; message?: unknown } | null;
  const code = String((e && (typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : e.name)) || 'UNKNOWN').slice(
    0,
    64,
  );
  let text = typeof e?.message === 'string' ? e.message : String(err);
  for (const p of SECRET_PATTERNS) text = text.replace(p, '[redacted]');
  text = replaceControlCharacters(text, ' ').trim();
  return { code, summary: text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text };
}

// Keys whose values never reach a log, matched in any case and inside camelCase or snake_case names
// (password, dbPassword, PG_PASSWORD, authorization, apiKey, jwtSecret, ...). `sql`, `bindings` and
// `parameters` are what drivers attach to errors: statements with the values bound into them. The
// personal ones (a student's or customer's id, a result or value) belong to people, not to operations.
// The one list: test/support/logLeaks.ts fails a test run on any such key a log line holds unredacted.
const SECRET_KEY = new RegExp(
  [
    'pass(word|wd)?$|pwd|secret|token|authorization|api_?key|cookie|payload',
    '^sql$|^sqlmessage$|^bindings$|^parameters$',
    '^values?$|^results?$|^(student|customer|user)_?ids?$',
  ].join('|'),
  'i',
);
/** What a redacted value is replaced with, in every log line. */
export const REDACTED = '[redacted]';
const MAX_DEPTH = 8;

/** The text of an error message as logged: credentials, tokens and quoted literals (driver-echoed values) removed. */
export function redactMessage(text: string): string {
  return text
    .replace(SECRET_PATTERNS[0]!, '[redacted]@')
    .replace(SECRET_PATTERNS[2]!, '[redacted]')
    .replace(/'(?:[^'\\]|\\.)*'/g, "'?'")
    .replace(/"(?:[^"\\]|\\.){24,}"/g, '"?"');
}

function redactError(e: Error, depth: number): Error {
  // Same prototype, so pino's error serializer still names its class; own fields copied redacted.
  const out = Object.create(Object.getPrototypeOf(e) as object) as Error & Record<string, unknown>;
  out.message = redactMessage(e.message);
  if (e.stack) out.stack = redactMessage(e.stack);
  for (const [k, v] of Object.entries(e)) if (k !== 'message' && k !== 'stack') out[k] = redactValue(k, v, depth + 1);
  if (e.cause !== undefined) out.cause = redactValue('cause', e.cause, depth + 1);
  return out;
}

/** Whether a log record's value under this key is always replaced by REDACTED. */
export function isRedactedKey(key: string): boolean {
  return SECRET_KEY.test(key) || SECRET_KEY.test(key.replace(/[-_]/g, ''));
}

function redactValue(key: string, v: unknown, depth: number): unknown {
  if (isRedactedKey(key)) return REDACTED;
  if (typeof v === 'string') return v.includes('://') ? v.replace(SECRET_PATTERNS[0]!, '[redacted]@') : v;
  if (v === null || typeof v !== 'object') return v;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (v instanceof Error) return redactError(v, depth);
  if (v instanceof Date || Buffer.isBuffer(v)) return v;
  if (Array.isArray(v)) return v.map((x, i) => redactValue(String(i), x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = redactValue(k, x, depth + 1);
  return out;
}

/** A log record with every secret-named key redacted at any depth, and errors reduced to safe fields. */
export function redactLogRecord(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) out[k] = redactValue(k, v, 0);
  return out;
}
