// Rate limits held in this gateway process: a token bucket per key (request rate with a burst) and a
// counter per key (requests in progress). Keys are principals (token subjects) or client addresses;
// both maps are LRU-bounded, so a flood of new keys cannot grow memory without bound (a key evicted
// while idle simply starts again with a full bucket). Over a limit the caller is refused at once,
// never queued.
import { LRUCache } from 'lru-cache';

const MAX_KEYS = 100_000;

export interface RateLimit {
  /** Average requests per second; 0 turns the limit off. */
  perSecond: number;
  /** Requests allowed at once above the rate (the bucket size). */
  burst: number;
}

/** What a refused caller is told: seconds until a request would be admitted (Retry-After). */
export interface Refusal {
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export interface TokenBuckets {
  /** Takes one token for `key` under `limit`; a refusal when the bucket is empty. */
  take(key: string, limit: RateLimit, now?: number): Refusal | undefined;
}

export function tokenBuckets(maxKeys = MAX_KEYS): TokenBuckets {
  const buckets = new LRUCache<string, Bucket>({ max: maxKeys });
  return {
    take(key, limit, now = Date.now()) {
      if (limit.perSecond <= 0) return undefined;
      const b = buckets.get(key) ?? { tokens: limit.burst, at: now };
      b.tokens = Math.min(limit.burst, b.tokens + ((now - b.at) / 1000) * limit.perSecond);
      b.at = now;
      buckets.set(key, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return undefined;
      }
      return { retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / limit.perSecond)) };
    },
  };
}

export interface ConcurrencyLimiter {
  /** A release function when `key` has fewer than `max` in progress (0: unlimited), else undefined. */
  acquire(key: string, max: number): (() => void) | undefined;
  /** How many `key` holds now. */
  held(key: string): number;
}

export function concurrencyLimiter(): ConcurrencyLimiter {
  // Plain map: a key leaves it when its last holder releases, so its size is what is in progress.
  const counts = new Map<string, number>();
  return {
    acquire(key, max) {
      const n = counts.get(key) ?? 0;
      if (max > 0 && n >= max) return undefined;
      counts.set(key, n + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (counts.get(key) ?? 1) - 1;
        if (left <= 0) counts.delete(key);
        else counts.set(key, left);
      };
    },
    held: (key) => counts.get(key) ?? 0,
  };
}
