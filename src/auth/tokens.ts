// Bearer tokens: JWTs verified with jose, against a shared secret (HS256) or a JWKS endpoint, with
// the accepted algorithms pinned (a token signed otherwise, or unsigned, is refused). A token must
// carry `sub` and at least one Tidemark role in its roles claim (AUTH_ROLES_CLAIM: `roles`, or a path
// such as Keycloak's realm_access.roles); other roles an identity provider adds are ignored. A bad
// signature, issuer, audience or expiry, a missing `exp`, or a token that is not an access token (an
// ID token, by its `typ` header or claims) is UNAUTHENTICATED with no detail about why (the reason is
// logged, not returned). A valid token whose roles cannot be honoured is FORBIDDEN with what is
// wrong: a retired role, a scoped role whose scope claim is missing or malformed (fail closed: the
// claim's name is in the message), or `service` for a subject not listed in AUTH_SERVICE_SUBJECTS.
import { SignJWT, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { TidemarkError } from '../shared/errors';
import { RETIRED_ROLES, ROLES, type Principal, type Role } from './principal';
import { remoteJwks, type RemoteJwksOptions } from './remoteJwks';

export interface TokenVerifier {
  verify(token: string): Promise<Principal>;
}

export interface JwtOptions {
  issuer: string;
  audience: string;
  /** Where the roles are: a claim name, else a dotted path into nested claims (default `roles`). */
  rolesClaim?: string;
  /** Accepted `alg` values (default: HS256 for a secret, the asymmetric ones for a JWKS). */
  algorithms?: readonly string[];
  /** Where the scope claims are (claim names or dotted paths); defaults in DEFAULT_SCOPE_CLAIMS. */
  scopeClaims?: Partial<ScopeClaims>;
  /** Subjects allowed to act as `service` (unscoped backends); none by default. */
  serviceSubjects?: readonly string[];
}

export interface ScopeClaims {
  customerId: string;
  schoolIds: string;
  userId: string;
}

export const DEFAULT_SCOPE_CLAIMS: ScopeClaims = { customerId: 'customer_id', schoolIds: 'school_ids', userId: 'user_id' };

const MAX_ID = 2147483647;
const MAX_SCHOOLS = 1000;
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_ID;

export const SECRET_ALGORITHMS = ['HS256'] as const;
export const JWKS_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;

/**
 * The value at a claim: the claim named exactly `path` first (namespaced Auth0 claims are URLs full of
 * dots), else the dotted path into nested objects (Keycloak's realm_access.roles).
 */
export function claimAt(payload: JWTPayload, path: string): unknown {
  if (path in payload) return payload[path];
  let v: unknown = payload;
  for (const part of path.split('.')) {
    if (typeof v !== 'object' || v === null || !Object.prototype.hasOwnProperty.call(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

export class AuthError extends TidemarkError {
  constructor(code: 'UNAUTHENTICATED' | 'FORBIDDEN', message: string, cause?: unknown) {
    super(code, message, { cause, retriable: false });
    this.name = 'AuthError';
  }
}

function scopeError(role: Role, claim: string, rule: string): AuthError {
  return new AuthError('FORBIDDEN', `the ${role} role needs the ${claim} claim (${rule})`);
}

/** The principal a verified token's claims describe, or FORBIDDEN naming what cannot be honoured. */
export function toPrincipal(payload: JWTPayload, o: Pick<JwtOptions, 'rolesClaim' | 'scopeClaims' | 'serviceSubjects'> = {}): Principal {
  const claimed = claimAt(payload, o.rolesClaim ?? 'roles');
  const listed = Array.isArray(claimed) ? claimed : [];
  let roles = ROLES.filter((r) => listed.includes(r));
  if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new AuthError('UNAUTHENTICATED', 'invalid token');
  const subject = payload.sub;
  if (roles.includes('service') && !(o.serviceSubjects ?? []).includes(subject)) {
    roles = roles.filter((r) => r !== 'service');
    if (roles.length === 0) throw new AuthError('FORBIDDEN', 'the service role is not enabled for this subject (AUTH_SERVICE_SUBJECTS)');
  }
  if (roles.length === 0) {
    const retired = listed.find((r): r is string => typeof r === 'string' && r in RETIRED_ROLES);
    if (retired) throw new AuthError('FORBIDDEN', RETIRED_ROLES[retired]!);
    throw new AuthError('UNAUTHENTICATED', 'invalid token');
  }
  const c = { ...DEFAULT_SCOPE_CLAIMS, ...o.scopeClaims };
  const p: Principal = { subject, roles };
  if (roles.includes('customer')) {
    const v = claimAt(payload, c.customerId);
    if (typeof v !== 'string' || v.length === 0 || v.length > 64)
      throw scopeError('customer', c.customerId, 'a string of 1 to 64 characters');
    p.customerId = v;
  }
  const schools = claimAt(payload, c.schoolIds);
  if (roles.includes('teacher') || (roles.includes('analyst') && schools !== undefined)) {
    const role = roles.includes('teacher') ? 'teacher' : 'analyst';
    if (!Array.isArray(schools) || schools.length === 0 || schools.length > MAX_SCHOOLS || !schools.every(isId))
      throw scopeError(role, c.schoolIds, `an array of 1 to ${MAX_SCHOOLS} school ids, positive integers`);
    p.schoolIds = [...new Set(schools as number[])].sort((a, b) => a - b);
  }
  if (roles.includes('student')) {
    const v = claimAt(payload, c.userId);
    if (!isId(v)) throw scopeError('student', c.userId, 'a positive integer');
    p.userId = v;
  }
  return p;
}

// Header `typ` values of an access token (RFC 9068's at+jwt, or the generic JWT); anything else an issuer
// sets (an ID token's, a logout token's) is refused. Without `typ` the token is judged by its claims.
const ACCESS_TOKEN_TYPES = new Set(['jwt', 'at+jwt', 'application/jwt', 'application/at+jwt']);
// Keycloak's `typ` claim of tokens that are not access tokens.
const NOT_ACCESS_CLAIM_TYPES = new Set(['id', 'id_token', 'refresh', 'offline', 'logout']);

/** Why a verified token is not an access token (an ID, refresh or logout token), or undefined. */
export function notAnAccessToken(header: { typ?: unknown }, payload: JWTPayload): string | undefined {
  if (header.typ !== undefined && !(typeof header.typ === 'string' && ACCESS_TOKEN_TYPES.has(header.typ.toLowerCase())))
    return 'header typ is not an access token type';
  if (typeof payload.typ === 'string' && NOT_ACCESS_CLAIM_TYPES.has(payload.typ.toLowerCase())) return 'typ claim names another token type';
  // OpenID Connect ID tokens carry these; access tokens do not.
  if (payload.nonce !== undefined || payload.at_hash !== undefined) return 'an ID token (nonce or at_hash)';
  return undefined;
}

function verifier(key: Uint8Array | JWTVerifyGetKey, o: JwtOptions, algorithms: readonly string[]): TokenVerifier {
  // exp is required: a token without one would be valid (and its WebSocket open) for ever.
  const options = {
    issuer: o.issuer,
    audience: o.audience,
    clockTolerance: 5,
    algorithms: [...(o.algorithms ?? algorithms)],
    requiredClaims: ['exp', 'sub'],
  };
  return {
    async verify(token) {
      try {
        const { payload, protectedHeader } = await jwtVerify(token, key as Uint8Array, options);
        const why = notAnAccessToken(protectedHeader, payload);
        if (why) throw new AuthError('UNAUTHENTICATED', 'invalid token', new Error(why));
        return toPrincipal(payload, o);
      } catch (err) {
        if (err instanceof AuthError) throw err;
        throw new AuthError('UNAUTHENTICATED', 'invalid token', err);
      }
    },
  };
}

export function fromJwtSecret(secret: string, o: JwtOptions): TokenVerifier {
  return verifier(new TextEncoder().encode(secret), o, SECRET_ALGORITHMS);
}

export function fromJwks(url: string, o: JwtOptions, fetching: RemoteJwksOptions): TokenVerifier {
  return verifier(remoteJwks(new URL(url), fetching), o, JWKS_ALGORITHMS);
}

/**
 * The claims a minted token carries for a principal, under the names a verifier with the same options
 * reads (the contract's names by default). A configured dotted path is written as one claim of that
 * exact name, which claimAt reads first.
 */
export function principalClaims(p: Principal, o: Pick<JwtOptions, 'rolesClaim' | 'scopeClaims'> = {}): Record<string, unknown> {
  const c = { ...DEFAULT_SCOPE_CLAIMS, ...o.scopeClaims };
  return {
    [o.rolesClaim ?? 'roles']: p.roles,
    ...(p.customerId !== undefined ? { [c.customerId]: p.customerId } : {}),
    ...(p.schoolIds !== undefined ? { [c.schoolIds]: [...p.schoolIds] } : {}),
    ...(p.userId !== undefined ? { [c.userId]: p.userId } : {}),
  };
}

/** Mints an HS256 token (development mode and tests) carrying the principal's roles and scope claims. */
export function signToken(secret: string, p: Principal, o: JwtOptions & { ttlSeconds?: number }): Promise<string> {
  return new SignJWT(principalClaims(p, o))
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(p.subject)
    .setIssuer(o.issuer)
    .setAudience(o.audience)
    .setIssuedAt()
    .setExpirationTime(`${o.ttlSeconds ?? 12 * 3600}s`)
    .sign(new TextEncoder().encode(secret));
}

/** Extracts the token from an `Authorization: Bearer <token>` value; undefined when absent. */
export function bearer(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer\s+([A-Za-z0-9._~+/=-]{10,4096})$/.exec(header.trim());
  if (!m) throw new AuthError('UNAUTHENTICATED', 'malformed authorization header');
  return m[1];
}
