// Remembers verified bearer tokens, so a client sending the same token on every request pays for
// the signature check (an HMAC or RSA/EC verification in jose, 5% of the gateway's CPU per write in
// the row-1 benchmark profile) once, not on every request.
//
// Safety: the key is the whole token string, so a hit is the very bytes that were verified. Only
// successful verifications are remembered; a rejected token is checked again every time. An entry
// never outlives the token's `exp`, nor `ttlMs` (which bounds how long a key withdrawn from the JWKS
// keeps admitting tokens it signed). The cache is bounded (least recently used entries go first).
import { LRUCache } from 'lru-cache';
import type { Clock } from '../shared/clock';
import type { Principal } from './principal';
import { tokenExpiresAtMs } from './tokenExpiry';
import type { TokenVerifier } from './tokens';

export interface TokenCacheOptions {
  /** Most tokens remembered; 0 turns the cache off. */
  maxEntries: number;
  /** Longest a token is trusted without checking its signature again. */
  ttlMs: number;
  clock: Clock;
}

export function cachingVerifier(inner: TokenVerifier, o: TokenCacheOptions): TokenVerifier {
  if (o.maxEntries <= 0 || o.ttlMs <= 0) return inner;
  // ttlResolution 0: every lookup reads the injected clock (lru-cache otherwise reuses a 'now' for 1 ms).
  const cache = new LRUCache<string, Principal>({
    max: o.maxEntries,
    ttl: o.ttlMs,
    ttlResolution: 0,
    perf: { now: () => o.clock.now().getTime() },
  });
  return {
    async verify(token) {
      const hit = cache.get(token);
      if (hit) return hit;
      const principal = await inner.verify(token);
      // Verified, so the claims are authentic; a token without `exp` keeps the default ttl.
      const expiresAt = tokenExpiresAtMs(token);
      const ttl = expiresAt === undefined ? o.ttlMs : Math.min(o.ttlMs, expiresAt - o.clock.now().getTime());
      if (ttl > 0) cache.set(token, principal, { ttl });
      return principal;
    },
  };
}
