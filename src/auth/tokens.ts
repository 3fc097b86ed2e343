// Bearer tokens: JWTs verified with jose, against a shared secret (HS256) or a JWKS endpoint, with
// the accepted algorithms pinned (a token signed otherwise, or unsigned, is refused). A token must
// carry `sub` and at least one Tidemark role in its roles claim (AUTH_ROLES_CLAIM: `roles`, or a path
// such as Keycloak's realm_access.roles); other roles an identity provider adds are ignored. Anything
// else is rejected with UNAUTHENTICATED and no detail about why (the reason is logged, not returned).
import { SignJWT, createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { TidemarkError } from '../shared/errors';
import { ROLES, type Principal } from './principal';

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
}

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

function toPrincipal(payload: JWTPayload, rolesClaim: string): Principal {
  const claimed = claimAt(payload, rolesClaim);
  const roles = Array.isArray(claimed) ? ROLES.filter((r) => claimed.includes(r)) : [];
  if (typeof payload.sub !== 'string' || roles.length === 0) throw new AuthError('UNAUTHENTICATED', 'invalid token');
  return { subject: payload.sub, roles };
}

function verifier(key: Uint8Array | JWTVerifyGetKey, o: JwtOptions, algorithms: readonly string[]): TokenVerifier {
  const options = { issuer: o.issuer, audience: o.audience, clockTolerance: 5, algorithms: [...(o.algorithms ?? algorithms)] };
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key as Uint8Array, options);
        return toPrincipal(payload, o.rolesClaim ?? 'roles');
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

export function fromJwks(url: string, o: JwtOptions): TokenVerifier {
  return verifier(createRemoteJWKSet(new URL(url)), o, JWKS_ALGORITHMS);
}

/** Mints an HS256 token (development mode and tests). */
export function signToken(secret: string, p: Principal, o: JwtOptions & { ttlSeconds?: number }): Promise<string> {
  return new SignJWT({ roles: p.roles })
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
