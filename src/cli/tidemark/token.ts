// `tidemark token` / `npm run token`: mints a bearer token with the secret the gateway verifies with
// (AUTH_JWT_SECRET, else in development the one kept in <STACK_DIR>, made on first use), so a token
// minted before or after `npm start` keeps working across restarts. Tokens of an identity provider
// (AUTH_JWKS_URL) come from that provider, not from here.
//
// Scoped roles need their claim (`--claim school_ids=11,12`, `customer_id=c-42`, `user_id=7`), typed as
// the contract says and written under the claim names the gateway reads (AUTH_*_CLAIM). Fail closed: a
// token the gateway would refuse (a scoped role without its claim) is never minted. `service` is honoured
// only for subjects in the gateway's AUTH_SERVICE_SUBJECTS, which may differ from this machine's, so it
// is minted with a warning.
import { InvalidArgumentError } from 'commander';
import { mintToken } from '../../auth/developmentTokens';
import { jwtOptionsOf } from '../../auth/jwtOptions';
import { RETIRED_ROLES, ROLES, type Principal, type Role } from '../../auth/principal';
import { AuthError, principalClaims, toPrincipal } from '../../auth/tokens';
import type { Settings } from '../../config/settings';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `90`, `90s`, `30m`, `1h`, `7d` as seconds (commander argument parser). */
export function parseTtl(v: string): number {
  const m = /^(\d{1,7})([smhd]?)$/.exec(v.trim());
  const seconds = m ? Number(m[1]) * UNITS[m[2] || 's']! : NaN;
  if (!(seconds > 0) || seconds > 366 * 86400) throw new InvalidArgumentError('a duration such as 90s, 30m, 1h or 7d (at most a year)');
  return seconds;
}

/** One role, repeatable (commander argument parser). */
export function parseRole(v: string, previous: Role[] = []): Role[] {
  if (!ROLES.includes(v as Role))
    throw new InvalidArgumentError(`${RETIRED_ROLES[v] ? `${RETIRED_ROLES[v]}; ` : ''}one of ${ROLES.join(', ')}`);
  return [...previous, v as Role];
}

/** The scope claims given with --claim, by the contract's names. */
export interface TokenClaims {
  customer_id?: string;
  school_ids?: number[];
  user_id?: number;
}

export const CLAIM_NAMES = ['customer_id', 'school_ids', 'user_id'] as const;
type ClaimName = (typeof CLAIM_NAMES)[number];

/** The roles that read each claim, and an example value. */
const CLAIM_USE: Record<ClaimName, { roles: readonly Role[]; example: string }> = {
  customer_id: { roles: ['customer'], example: 'customer_id=c-42' },
  school_ids: { roles: ['teacher', 'analyst'], example: 'school_ids=11,12' },
  user_id: { roles: ['student'], example: 'user_id=7' },
};

/** The claim each scoped role cannot do without. */
const REQUIRED: Partial<Record<Role, ClaimName>> = { customer: 'customer_id', teacher: 'school_ids', student: 'user_id' };

const MAX_ID = 2147483647;
const id = (v: string): number | undefined => (/^\d{1,10}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_ID ? Number(v) : undefined);

/** `name=value`, repeatable (commander argument parser); values typed per the contract. */
export function parseClaim(v: string, previous: TokenClaims = {}): TokenClaims {
  const eq = v.indexOf('=');
  const name = (eq < 0 ? v : v.slice(0, eq)).trim() as ClaimName;
  const value = eq < 0 ? '' : v.slice(eq + 1).trim();
  if (!CLAIM_NAMES.includes(name)) throw new InvalidArgumentError(`name=value with name one of ${CLAIM_NAMES.join(', ')}`);
  if (previous[name] !== undefined) throw new InvalidArgumentError(`${name} given twice`);
  if (name === 'customer_id') {
    if (value.length === 0 || value.length > 64) throw new InvalidArgumentError('customer_id is a string of 1 to 64 characters');
    return { ...previous, customer_id: value };
  }
  if (name === 'user_id') {
    const n = id(value);
    if (n === undefined) throw new InvalidArgumentError(`user_id is a positive integer (at most ${MAX_ID})`);
    return { ...previous, user_id: n };
  }
  const ids = value.split(',').map((x) => id(x.trim()));
  if (value === '' || ids.some((x) => x === undefined) || ids.length > 1000)
    throw new InvalidArgumentError('school_ids is a comma list of 1 to 1000 positive integers, e.g. school_ids=11,12');
  return { ...previous, school_ids: ids as number[] };
}

export interface TokenRequest {
  roles: Role[];
  claims?: TokenClaims;
  subject?: string;
  ttlSeconds: number;
}

/** The principal a request describes, or an Error saying what is missing (nothing is minted then). */
export function tokenPrincipal(s: Settings, o: TokenRequest): { principal: Principal; warnings: string[] } {
  const roles = [...new Set(o.roles)];
  const claims = o.claims ?? {};
  for (const role of roles) {
    const needed = REQUIRED[role];
    if (needed && claims[needed] === undefined)
      throw new Error(
        `the ${role} role needs its ${needed} claim: add --claim ${CLAIM_USE[needed].example} (the gateway refuses a ${role} token without it)`,
      );
  }
  for (const name of CLAIM_NAMES) {
    const use = CLAIM_USE[name];
    if (claims[name] !== undefined && !use.roles.some((r) => roles.includes(r)))
      throw new Error(`--claim ${name} is read only for the ${use.roles.join(' and ')} role${use.roles.length > 1 ? 's' : ''}`);
  }
  const subject = o.subject ?? `cli-${roles.join('-')}`;
  const principal: Principal = {
    subject,
    roles,
    ...(claims.customer_id !== undefined ? { customerId: claims.customer_id } : {}),
    ...(claims.school_ids !== undefined ? { schoolIds: claims.school_ids } : {}),
    ...(claims.user_id !== undefined ? { userId: claims.user_id } : {}),
  };
  const warnings: string[] = [];
  if (roles.includes('service'))
    warnings.push(
      `the service role is honoured only for subjects the gateway lists in AUTH_SERVICE_SUBJECTS; ${subject} ` +
        (s.authServiceSubjects.includes(subject) ? 'is listed here' : 'is not listed in this environment (use --subject)'),
    );
  // The gateway's own reading of the claims, as it will verify them (service aside: its list may differ).
  const jwt = jwtOptionsOf(s);
  try {
    toPrincipal(
      { sub: subject, ...principalClaims(principal, jwt) },
      { ...jwt, serviceSubjects: [...(jwt.serviceSubjects ?? []), subject] },
    );
  } catch (err) {
    throw new Error(`the gateway would refuse this token: ${err instanceof AuthError ? err.message : String(err)}`);
  }
  return { principal, warnings };
}

/** The token a request describes, minted as every Tidemark token is (mintToken); warnings go to `warn`. */
export async function mintRequestedToken(s: Settings, o: TokenRequest, warn: (line: string) => void = () => undefined): Promise<string> {
  const { principal, warnings } = tokenPrincipal(s, o);
  const minted = mintToken(s, principal, o.ttlSeconds);
  warnings.forEach(warn);
  return minted;
}
