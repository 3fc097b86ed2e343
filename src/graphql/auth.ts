// Authentication at the edge. HTTP requests carry `Authorization: Bearer <jwt>`; WebSocket clients
// send `{ authorization: "Bearer <jwt>" }` as graphql-ws connection_init payload. Fields declare the
// access level they need with type-graphql's @Authorized(level); `authChecker` enforces it, throwing
// UNAUTHENTICATED (no or invalid token) or FORBIDDEN (valid token, insufficient role). Public fields
// (health) carry no decorator.
import type { AuthCheckerFn } from 'type-graphql';
import { mayAccess, type AccessLevel } from '../auth/principal';
import { AuthError, bearer, type TokenVerifier } from '../auth/tokens';
import type { Authentication, GatewayContext } from './context';

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
