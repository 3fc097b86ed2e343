// Authentication at the edge. HTTP requests carry `Authorization: Bearer <jwt>`; WebSocket clients
// send `{ authorization: "Bearer <jwt>" }` as graphql-ws connection_init payload. Fields declare the
// access level they need with type-graphql's @Authorized(level): `operate`, or a domain capability
// such as `fitness:read`, answered by that domain's policy (src/domains/<d>/policy.ts). `authChecker`
// enforces it, throwing UNAUTHENTICATED (no or invalid token) or FORBIDDEN (the role has no such
// capability at all). This is only the early refusal: which rows a caller may touch is decided by the
// services with the same policy. Public fields (health) carry no decorator.
import type { AuthCheckerFn } from 'type-graphql';
import { mayUse, type Capability } from '../auth/access';
import { mayOperate, type Principal } from '../auth/principal';
import { AuthError, bearer, type TokenVerifier } from '../auth/tokens';
import { domainModule, isDomain } from '../domains/registry';
import type { Domain } from '../publication/event';
import type { Authentication, GatewayContext } from './context';

/** What a field asks of its caller (the argument of @Authorized). */
export type AccessLevel = 'operate' | `${Domain}:${Capability}`;

export function mayAccess(p: Principal, level: AccessLevel): boolean {
  if (level === 'operate') return mayOperate(p);
  const [domain, capability] = level.split(':') as [Domain, Capability];
  // Each registered domain's own policy (its module's access); a level naming no domain allows nobody.
  return isDomain(domain) && mayUse(domainModule(domain).access.policy, p, capability);
}

/** The caller of a request that passed authChecker (resolvers behind @Authorized only). */
export function principalOf(ctx: Pick<GatewayContext, 'auth'>): Principal {
  const p = ctx.auth.principal;
  if (!p) throw ctx.auth.failure ?? new AuthError('UNAUTHENTICATED', 'authentication required');
  return p;
}

export async function authenticate(verifier: TokenVerifier, header: unknown): Promise<Authentication> {
  try {
    const token = bearer(header);
    if (!token) return {};
    return { principal: await verifier.verify(token) };
  } catch (err) {
    return { failure: err instanceof AuthError ? err : new AuthError('UNAUTHENTICATED', 'invalid token', err) };
  }
}

export const authChecker: AuthCheckerFn<GatewayContext, AccessLevel> = ({ context }, levels) => {
  const { principal, failure } = context.auth;
  if (failure) throw failure;
  if (!principal) throw new AuthError('UNAUTHENTICATED', 'authentication required');
  if (levels.length === 0 || levels.some((l) => mayAccess(principal, l))) return true;
  throw new AuthError('FORBIDDEN', 'not allowed for your role');
};

/** A verifier that accepts nothing (no secret and no JWKS configured). */
export const rejectAllTokens: TokenVerifier = {
  verify: () => Promise.reject(new AuthError('UNAUTHENTICATED', 'token verification is not configured')),
};
