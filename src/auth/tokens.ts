// Bearer tokens: JWTs verified with jose, against a shared secret (HS256) or a JWKS endpoint.
// A token must carry `sub` and a `roles` claim listing Tidemark roles; anything else is rejected
// with UNAUTHENTICATED and no detail about why (the reason is logged, not returned).
import { SignJWT, createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { TidemarkError } from '../shared/errors';
import { ROLES, type Principal, type Role } from './principal';

export interface TokenVerifier {
  verify(token: string): Promise<Principal>;
}

export interface JwtOptions {
  issuer: string;
  audience: string;
}

export class AuthError extends TidemarkError {
  constructor(code: 'UNAUTHENTICATED' | 'FORBIDDEN', message: string, cause?: unknown) {
    super(code, message, { cause, retriable: false });
    this.name = 'AuthError';
  }
}

function toPrincipal(payload: JWTPayload): Principal {
  const roles = (payload as { roles?: unknown }).roles;
  if (typeof payload.sub !== 'string' || !Array.isArray(roles) || !roles.every((r) => ROLES.includes(r as Role)) || roles.length === 0)
    throw new AuthError('UNAUTHENTICATED', 'invalid token');
  return { subject: payload.sub, roles: roles as Role[] };
}

function verifier(key: Uint8Array | JWTVerifyGetKey, o: JwtOptions): TokenVerifier {
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key as Uint8Array, { issuer: o.issuer, audience: o.audience, clockTolerance: 5 });
        return toPrincipal(payload);
      } catch (err) {
        if (err instanceof AuthError) throw err;
        throw new AuthError('UNAUTHENTICATED', 'invalid token', err);
      }
    },
  };
}

export function fromJwtSecret(secret: string, o: JwtOptions): TokenVerifier {
  return verifier(new TextEncoder().encode(secret), o);
}

export function fromJwks(url: string, o: JwtOptions): TokenVerifier {
  return verifier(createRemoteJWKSet(new URL(url)), o);
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
