// What the console knows about the signed-in user, read from the token's payload. This decides only
// what the UI offers: the gateway verifies the signature and enforces the role and its scope on every
// request, so a forged payload gets a page of FORBIDDEN errors and nothing else. The roles are read
// where the gateway reads them (AUTH_ROLES_CLAIM, served at /console/config.json), the same way:
// a claim of exactly that name first, else a dotted path into nested claims (src/auth/tokens.ts).
export type ConsoleRole = 'customer' | 'teacher' | 'student' | 'analyst' | 'operator' | 'service';

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

/** What the gateway tells the console about its tokens (GET /console/config.json). */
export interface ConsoleConfig {
  /** Where a token's roles are: a claim name, else a dotted path (AUTH_ROLES_CLAIM). */
  rolesClaim: string;
}

export const DEFAULT_CONFIG: ConsoleConfig = { rolesClaim: 'roles' };

const KNOWN: readonly ConsoleRole[] = ['customer', 'teacher', 'student', 'analyst', 'operator', 'service'];

function base64UrlDecode(part: string): string {
  const padded = part.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (part.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The value at a claim: the claim named exactly `path` first, else the dotted path (as the gateway reads it). */
export function claimAt(payload: Record<string, unknown>, path: string): unknown {
  if (Object.prototype.hasOwnProperty.call(payload, path)) return payload[path];
  let v: unknown = payload;
  for (const part of path.split('.')) {
    if (typeof v !== 'object' || v === null || !Object.prototype.hasOwnProperty.call(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** The gateway's console configuration; the defaults when it cannot be read (an older gateway). */
export async function loadConsoleConfig(fetchImpl: typeof fetch = fetch): Promise<ConsoleConfig> {
  try {
    const r = await fetchImpl('/console/config.json', { headers: { accept: 'application/json' } });
    const body = r.ok ? ((await r.json()) as Partial<ConsoleConfig>) : {};
    return typeof body.rolesClaim === 'string' && body.rolesClaim.length > 0 ? { rolesClaim: body.rolesClaim } : DEFAULT_CONFIG;
  } catch {
    return DEFAULT_CONFIG;
  }
}

/** Reads a pasted token (with or without "Bearer "); throws an Error with a sentence for the user. */
export function sessionFromToken(input: string, now: number, config: ConsoleConfig = DEFAULT_CONFIG): Session {
  const token = input.trim().replace(/^Bearer\s+/i, '');
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)))
    throw new Error('This is not a bearer token (a JWT has three dot-separated parts).');
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(base64UrlDecode(parts[1]!)) as Record<string, unknown>;
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new Error('not an object');
  } catch {
    throw new Error('The token payload cannot be read.');
  }
  const claimed = claimAt(payload, config.rolesClaim);
  const listed: unknown[] = Array.isArray(claimed) ? claimed : [];
  const roles = KNOWN.filter((r) => listed.includes(r));
  if (roles.length === 0)
    throw new Error(
      listed.includes('client')
        ? 'The token carries only the retired client role: ask for an operator or analyst token.'
        : `The token carries no Tidemark role (operator, analyst, ...) in its ${config.rolesClaim} claim.`,
    );
  const expiresAt = typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  if (expiresAt !== undefined && expiresAt <= now) throw new Error('The token has expired.');
  return { token, subject: typeof payload.sub === 'string' ? payload.sub : 'unknown', roles, expiresAt };
}

/** The console's pages by role (the gateway's grants, src/graphql/auth.ts): operator all, analyst reports. */
export function capabilitiesOf(roles: readonly ConsoleRole[]): Capabilities {
  const operate = roles.includes('operator');
  return { operate, report: operate || roles.includes('analyst') };
}
