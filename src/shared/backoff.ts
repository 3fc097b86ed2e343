// Retry timing is an injected strategy, not inline ifs: relays ask it for the next delay and whether
// to give up. The default is bounded exponential backoff with full jitter (AWS architecture blog).

export interface RetryPolicy {
  /** Delay before attempt `attempt + 1`, given `attempt` failures so far (1-based). */
  delayMs(attempt: number): number;
  /** True when `attempts` failures mean the event must be parked / dead-lettered. */
  giveUp(attempts: number): boolean;
}

export function exponentialBackoff(opts: { baseMs: number; maxMs: number; maxAttempts: number; random?: () => number }): RetryPolicy {
  const random = opts.random ?? Math.random;
  return {
    delayMs(attempt) {
      const ceiling = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, attempt - 1));
      // Full jitter, but never below half the ceiling, so retries still spread out yet keep growing.
      return Math.round(ceiling / 2 + random() * (ceiling / 2));
    },
    giveUp: (attempts) => attempts >= opts.maxAttempts,
  };
}
