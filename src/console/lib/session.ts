// What the console knows about the signed-in user, read from the token's payload. This decides only
// what the UI offers: the gateway verifies the signature and enforces the role on every request, so a
// forged payload gets a page of FORBIDDEN errors and nothing else.
export type ConsoleRole = 'client' | 'operator' | 'analyst';

export interface Session {
  token: string;
  subject: string;
  roles: ConsoleRole[];
  /** Epoch milliseconds; undefined when the token has no exp. */
  expiresAt?: number;
}

export interface Capabilities {
  /** Pipeline, stuck work, reconciliation (operator). */
  operate: boolean;
  /** Reports (analyst or operator). */
  report: boolean;
}

const KNOWN: readonly ConsoleRole[] = ['client', 'operator', 'analyst'];

function base64UrlDecode(part: string): string {
  const padded = part.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (part.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Reads a pasted token (with or without "Bearer "); throws an Error with a sentence for the user. */
export function sessionFromToken(input: string, now: number): Session {
  const token = input.trim().replace(/^Bearer\s+/i, '');
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)))
    throw new Error('This is not a bearer token (a JWT has three dot-separated parts).');
  let payload: { sub?: unknown; roles?: unknown; exp?: unknown };
  try {
    payload = JSON.parse(base64UrlDecode(parts[1]!)) as typeof payload;
  } catch {
    throw new Error('The token payload cannot be read.');
  }
  const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is ConsoleRole => KNOWN.includes(r as ConsoleRole)) : [];
  if (roles.length === 0) throw new Error('The token carries no Tidemark role (client, operator or analyst).');
  const expiresAt = typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  if (expiresAt !== undefined && expiresAt <= now) throw new Error('The token has expired.');
  return { token, subject: typeof payload.sub === 'string' ? payload.sub : 'unknown', roles, expiresAt };
}

/** The same grants as the gateway (src/auth/principal.ts): operator may everything, analyst reports. */
export function capabilitiesOf(roles: readonly ConsoleRole[]): Capabilities {
  const operate = roles.includes('operator');
  return { operate, report: operate || roles.includes('analyst') };
}
