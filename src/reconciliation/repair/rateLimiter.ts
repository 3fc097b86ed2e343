// Repairs are rate-limited so a large recovery never starves live traffic: replays share the topic
// and the projector with current events, rebuild inserts share ClickHouse with the projector's
// flushes. The limiter is injected (a token bucket by default; tests may pass an unlimited one).
import type { Clock } from '../../shared/clock';
import { sleep } from '../../shared/lifecycle';

export interface RateLimiter {
  /** Resolves once `n` units may proceed (events replayed, rows inserted). */
  acquire(n: number, signal?: AbortSignal): Promise<void>;
}

export const unlimited: RateLimiter = { acquire: () => Promise.resolve() };

/**
 * Tokens refill at `perSecond` up to `burst`; a request larger than the burst is served in slices.
 * `wait` is the sleep between refills (tests pass one that advances their clock, so the rate is
 * checked against the clock's time instead of the wall clock's).
 */
export function tokenBucket(o: { perSecond: number; burst?: number; clock: Clock; wait?: typeof sleep }): RateLimiter {
  const wait = o.wait ?? sleep;
  if (!(o.perSecond > 0)) throw new RangeError('perSecond must be positive');
  const burst = Math.max(1, o.burst ?? o.perSecond);
  let tokens = burst;
  let at = o.clock.now().getTime();
  let queue: Promise<void> = Promise.resolve();
  const refill = () => {
    const now = o.clock.now().getTime();
    tokens = Math.min(burst, tokens + ((now - at) / 1000) * o.perSecond);
    at = now;
  };
  async function take(n: number, signal?: AbortSignal): Promise<void> {
    let left = n;
    while (left > 0 && !signal?.aborted) {
      refill();
      const slice = Math.min(left, burst);
      if (tokens >= slice) {
        tokens -= slice;
        left -= slice;
        continue;
      }
      await wait(Math.ceil(((slice - tokens) / o.perSecond) * 1000), signal);
    }
  }
  return {
    acquire(n, signal) {
      // First come, first served: callers queue behind each other.
      const mine = queue.then(() => take(n, signal));
      queue = mine.catch(() => undefined);
      return mine;
    },
  };
}
