// What a test run's logs must never hold (issue #29), searched line by line: a JWT, a secret of the
// test settings, credentials in a URL, and any key of the logger's redaction list (src/shared/redact.ts:
// secrets, SQL and bound values, students' and customers' ids, results) holding anything but the marker.
// Pure: lines in, findings out (logCheck.ts reads the files). A finding names a kind, never the value.
import { isRedactedKey, REDACTED } from '../../src/shared/redact';

export interface Secret {
  name: string;
  value: string;
  /** Found only where it stands as a credential: a weak value that is also an ordinary word of the logs. */
  positional?: boolean;
}

export interface Finding {
  file: string;
  line: number;
  what: string;
}

// A signed token's header and claims are base64 JSON, both starting `{"` (eyJ).
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}/;
// user:password@ after a scheme; redactMessage leaves `[redacted]@`, with no colon before the @.
const URL_CREDENTIALS = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:"']+:[^\s/@"']+@/i;
const MAX_DEPTH = 32;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function secretIn(line: string, s: Secret): boolean {
  if (!s.positional) return line.includes(s.value);
  const v = escape(s.value);
  return new RegExp(`:${v}@|(?:pass(?:word|wd)?|pwd|secret)["']?\\s*[=:]\\s*["']?${v}(?![\\w-])`, 'i').test(line);
}

function unredactedKeys(v: unknown, path: string, found: string[], depth: number): void {
  if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return;
  for (const [k, x] of Object.entries(v)) {
    const at = path ? `${path}.${k}` : k;
    if (!Array.isArray(v) && isRedactedKey(k)) {
      if (x !== REDACTED) found.push(`an unredacted "${at}"`);
    } else unredactedKeys(x, at, found, depth + 1);
  }
}

/** The kinds of leak in one log line (empty when clean). Lines that are not JSON get the text searches. */
export function lineLeaks(line: string, secrets: readonly Secret[]): string[] {
  const found: string[] = [];
  if (JWT.test(line)) found.push('a JWT');
  if (URL_CREDENTIALS.test(line)) found.push('credentials in a URL');
  for (const s of secrets) if (s.value && secretIn(line, s)) found.push(`the ${s.name}`);
  if (line.startsWith('{')) {
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      record = undefined; // a line cut short by a killed process: the text searches above still ran
    }
    unredactedKeys(record, '', found, 0);
  }
  return found;
}

/** Every leak of one file's text, by line number. */
export function scanLog(file: string, text: string, secrets: readonly Secret[]): Finding[] {
  return text.split('\n').flatMap((l, i) => lineLeaks(l, secrets).map((what) => ({ file, line: i + 1, what })));
}

/**
 * The secrets of a settings object: every non-empty string under a key of the redaction list (engine
 * passwords, the JWT secret, ...). One shorter than 12 characters or equal to another setting's value
 * (the local stack's password is also its user name, and the service's name) is searched positionally.
 */
export function secretsOf(settings: Record<string, unknown>, extra: Record<string, string> = {}): Secret[] {
  const ordinary = new Set([
    'tidemark',
    ...Object.entries(settings)
      .filter(([k]) => !isRedactedKey(k))
      .map(([, v]) => v),
  ]);
  const all = { ...extra, ...settings };
  return Object.entries(all)
    .filter((e): e is [string, string] => isRedactedKey(e[0]) && typeof e[1] === 'string' && e[1] !== '')
    .map(([name, value]) => ({ name, value, positional: value.length < 12 || ordinary.has(value) }));
}
