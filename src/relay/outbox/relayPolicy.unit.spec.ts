// Pure parts of the relay: the retry schedule it relies on, the broker-rejection test, the publish
// timeout race and the lease check.
import { exponentialBackoff } from '../backoff';
import { isRecordRejected, withTimeout } from './kafkaSink';
import { validateRelayOptions } from './relay';

describe('retry schedule', () => {
  it('grows exponentially with jitter and stays bounded', () => {
    for (const r of [0, 0.5, 0.999]) {
      const p = exponentialBackoff({ baseMs: 500, maxMs: 60000, maxAttempts: 20, random: () => r });
      let prevCeiling = 0;
      for (let attempt = 1; attempt <= 30; attempt++) {
        const ceiling = Math.min(60000, 500 * 2 ** (attempt - 1));
        const d = p.delayMs(attempt);
        expect(d).toBeGreaterThanOrEqual(ceiling / 2);
        expect(d).toBeLessThanOrEqual(ceiling);
        expect(ceiling).toBeGreaterThanOrEqual(prevCeiling);
        prevCeiling = ceiling;
      }
    }
  });
  it('gives up exactly at the attempt limit', () => {
    const p = exponentialBackoff({ baseMs: 1, maxMs: 1, maxAttempts: 3 });
    expect([1, 2, 3, 4].map((a) => p.giveUp(a))).toEqual([false, false, true, true]);
  });
});

describe('publish failures', () => {
  it('tells a record the broker refused from a transport or producer-state failure', () => {
    const protocol = Object.assign(new Error('too large'), { name: 'KafkaJSProtocolError', retriable: false, type: 'MESSAGE_TOO_LARGE' });
    expect(isRecordRejected(protocol)).toBe(true);
    expect(isRecordRejected(Object.assign(new Error('wrapped'), { name: 'KafkaJSNonRetriableError', retriable: false, cause: protocol }))).toBe(true);
    expect(isRecordRejected(Object.assign(new Error('seq'), { name: 'KafkaJSProtocolError', retriable: false, type: 'OUT_OF_ORDER_SEQUENCE_NUMBER' }))).toBe(false);
    expect(isRecordRejected(Object.assign(new Error('down'), { name: 'KafkaJSConnectionError', retriable: true }))).toBe(false);
    expect(isRecordRejected(Object.assign(new Error('leader'), { name: 'KafkaJSProtocolError', retriable: true, type: 'LEADER_NOT_AVAILABLE' }))).toBe(false);
    expect(isRecordRejected(undefined)).toBe(false);
  });
  it('times out a publish that does not answer, without an unhandled rejection later', async () => {
    let rejectLater: (e: Error) => void = () => undefined;
    const slow = new Promise<void>((_, reject) => (rejectLater = reject));
    await expect(withTimeout(slow, 10, () => new Error('timed out'))).rejects.toThrow('timed out');
    rejectLater(new Error('late failure'));
    await expect(withTimeout(Promise.resolve(7), 1000, () => new Error('x'))).resolves.toBe(7);
  });
  it('refuses a lease that does not outlast the publish timeout', () => {
    expect(() => validateRelayOptions({ leaseMs: 30000, publishTimeoutMs: 10000, batchSize: 500, pollIntervalMs: 200 })).not.toThrow();
    expect(() => validateRelayOptions({ leaseMs: 5000, publishTimeoutMs: 5000, batchSize: 500, pollIntervalMs: 200 })).toThrow(/must be longer than the publish timeout/);
    expect(() => validateRelayOptions({ leaseMs: 30000, publishTimeoutMs: 10000, batchSize: 500, pollIntervalMs: 200, helper: true })).toThrow(/helper loop needs the backlog signal/);
  });
});
