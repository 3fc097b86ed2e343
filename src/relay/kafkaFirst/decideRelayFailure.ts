// What a failed relay attempt does to its row: pure, from the attempts so far and the RetryPolicy.
// With the default policy (KAFKA_FIRST_RELAY_MAX_ATTEMPTS=3) the third failure dead-letters the row;
// earlier failures schedule the next attempt after bounded exponential backoff with jitter.
import type { RetryPolicy } from '../backoff';

export interface RelayFailureDecision {
  relayAttempts: number;
  status: 'NOT_PUBLISHED' | 'DEAD_LETTER';
  /** Delay before the next attempt (0 when dead-lettered). */
  retryInMs: number;
}

export function decideRelayFailure(previousAttempts: number, policy: RetryPolicy): RelayFailureDecision {
  const relayAttempts = previousAttempts + 1;
  if (policy.giveUp(relayAttempts)) return { relayAttempts, status: 'DEAD_LETTER', retryInMs: 0 };
  return { relayAttempts, status: 'NOT_PUBLISHED', retryInMs: Math.max(0, Math.round(policy.delayMs(relayAttempts))) };
}
