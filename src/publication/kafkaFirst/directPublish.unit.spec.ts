// The direct attempt loop, against a scripted send function and a clock the test moves.
import { fixedClock } from '../../shared/clock';
import { exponentialBackoff } from '../../shared/backoff';
import { isTimeout, publishDirect, type DirectPolicy } from './directPublish';
import { OperationTimeoutError } from '../../shared/timeout';

const policy = (over: Partial<DirectPolicy> = {}): DirectPolicy => ({
  attempts: 3,
  attemptTimeoutMs: 1000,
  deadlineMs: 3500,
  retry: exponentialBackoff({ baseMs: 50, maxMs: 200, maxAttempts: 3, random: () => 0.5 }),
  ...over,
});

describe('publishDirect', () => {
  it('stops at the first success', async () => {
    const clock = fixedClock('2026-01-01T00:00:00Z');
    let calls = 0;
    const r = await publishDirect(async () => void calls++, policy(), { clock, sleep: async () => undefined });
    expect(r).toEqual({ delivered: true, results: ['success'], failureKinds: [] });
    expect(calls).toBe(1);
  });

  it('makes exactly three attempts on failures, pausing between them, then reports not delivered', async () => {
    const clock = fixedClock('2026-01-01T00:00:00Z');
    const pauses: number[] = [];
    const seen: string[] = [];
    const r = await publishDirect(async () => Promise.reject(new Error('connect ECONNREFUSED')), policy(), {
      clock,
      sleep: async (ms) => void pauses.push(ms),
      onAttempt: (x) => void seen.push(x),
    });
    expect(r.delivered).toBe(false);
    expect(r.results).toEqual(['failure', 'failure', 'failure']);
    expect(seen).toEqual(['failure', 'failure', 'failure']);
    expect(pauses).toHaveLength(2);
    expect(pauses[1]!).toBeGreaterThan(pauses[0]!);
  });

  it('shares the deadline so the third attempt still happens when earlier ones used their whole budget', async () => {
    const clock = fixedClock('2026-01-01T00:00:00Z');
    const budgets: number[] = [];
    const r = await publishDirect(
      async (budget) => {
        budgets.push(budget);
        clock.advance(budget);
        throw new OperationTimeoutError('direct publish', budget);
      },
      policy({ attemptTimeoutMs: 2000, deadlineMs: 3000 }),
      { clock, sleep: async (ms) => clock.advance(ms) },
    );
    expect(r.results).toEqual(['timeout', 'timeout', 'timeout']);
    expect(r.failureKinds).toEqual(['outage', 'outage', 'outage']); // a hanging cluster: opens the circuit
    expect(budgets).toHaveLength(3);
    expect(budgets.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3000);
    expect(budgets[0]).toBe(1000);
  });

  it('counts a broker request timeout as unknown delivery, and a refused connection as a failure', () => {
    expect(isTimeout(new OperationTimeoutError('x', 1))).toBe(true);
    expect(isTimeout({ name: 'KafkaJSNumberOfRetriesExceeded', cause: { name: 'KafkaJSRequestTimeoutError' } })).toBe(true);
    expect(isTimeout({ name: 'KafkaJSRequestTimeoutError' })).toBe(true);
    expect(isTimeout({ name: 'KafkaJSNumberOfRetriesExceeded', cause: { name: 'KafkaJSConnectionError' } })).toBe(false);
  });
});
