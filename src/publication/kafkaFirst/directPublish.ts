// The direct attempts of one event after its transaction committed: exactly `attempts` tries (3 by
// the specification) inside one overall deadline. Each attempt gets min(attempt timeout, remaining
// time / attempts left), so the last attempt is never squeezed out by slow earlier ones and the whole
// loop never outlives the deadline. A timed-out attempt is "unknown" (the broker may have stored the
// record), so it is reported apart from failures; either way the caller stores the fallback row.
import type { RetryPolicy } from '../../shared/backoff';
import type { Clock } from '../../shared/clock';
import { sleep as realSleep } from '../../shared/lifecycle';
import type { DirectAttemptResult } from './metrics';
import { OperationTimeoutError, withTimeout } from '../../shared/timeout';
import { classifyPublishFailure, type PublishFailureKind } from '../../shared/publishFailure';

export interface DirectPolicy {
  attempts: number;
  attemptTimeoutMs: number;
  deadlineMs: number;
  /** Pause before attempt n+1 after n failures; only delayMs is used (the attempt count is fixed). */
  retry: RetryPolicy;
}

export interface DirectReport {
  delivered: boolean;
  results: DirectAttemptResult[];
  lastError?: unknown;
  /** How each failed attempt is classified (shared/publishFailure.ts): all 'outage' opens the Kafka circuit. */
  failureKinds: PublishFailureKind[];
}

/** True for errors that leave delivery unknown: our timer fired, or the broker did not answer in time. */
export function isTimeout(err: unknown): boolean {
  const e = err as { name?: unknown; cause?: { name?: unknown }; originalError?: { name?: unknown } } | null;
  const timedOut = (x: { name?: unknown } | undefined) => x?.name === 'KafkaJSRequestTimeoutError';
  return err instanceof OperationTimeoutError || timedOut(e ?? undefined) || timedOut(e?.cause) || timedOut(e?.originalError);
}

export async function publishDirect(
  send: (timeoutMs: number) => Promise<void>,
  policy: DirectPolicy,
  deps: { clock: Clock; sleep?: (ms: number) => Promise<void>; onAttempt?: (r: DirectAttemptResult) => void },
): Promise<DirectReport> {
  const sleep = deps.sleep ?? ((ms: number) => realSleep(ms));
  const started = deps.clock.now().getTime();
  const remaining = () => policy.deadlineMs - (deps.clock.now().getTime() - started);
  const results: DirectAttemptResult[] = [];
  const failureKinds: PublishFailureKind[] = [];
  let lastError: unknown;
  for (let n = 1; n <= policy.attempts; n++) {
    const budget = Math.max(1, Math.min(policy.attemptTimeoutMs, Math.floor(remaining() / (policy.attempts - n + 1))));
    try {
      await withTimeout(send(budget), budget, 'direct publish');
      results.push('success');
      deps.onAttempt?.('success');
      return { delivered: true, results, failureKinds };
    } catch (err) {
      const r: DirectAttemptResult = isTimeout(err) ? 'timeout' : 'failure';
      results.push(r);
      deps.onAttempt?.(r);
      failureKinds.push(classifyPublishFailure(err));
      lastError = err;
    }
    if (n < policy.attempts) {
      // The pause may use at most a tenth of what is left, so it never eats the next attempts' budget.
      const pause = Math.min(policy.retry.delayMs(n), Math.floor(remaining() / 10));
      if (pause > 0) await sleep(pause);
    }
  }
  return { delivered: false, results, lastError, failureKinds };
}
