// Pure parts of the relay: the retry schedule, how publish failures are classified (outage or the
// record's own), how failed rows are grouped and when they give up, the publish timeout race and the
// lease check.
// The real process, where Node reports unhandled rejections: jest hands the test a copy (also for
// 'node:process') that never emits them; runInThisContext evaluates in Node's own context.
import { runInThisContext } from 'node:vm';
import { withTimeout } from '../shared/timeout';
import { exponentialBackoff } from '../shared/backoff';
import { publishTimeout } from '../shared/timeout';
import type { RelayRecord } from '../publication/relayPort/publicationTable';
import { classifyPublishFailure } from '../shared/publishFailure';
import { failureGroups } from './failureGroups';
import { relayProblems } from './relayDeps';

const nodeProcess = runInThisContext('process') as NodeJS.Process;

const kafkaError = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...extra });

function record(id: number, attempts: number, ageMs = 0): RelayRecord {
  return {
    id,
    eventId: `e${id}`,
    domain: 'orders',
    aggregateId: `a${id}`,
    version: 1,
    topic: 't',
    key: `a${id}`,
    value: '{}',
    headers: {},
    attempts,
    from: 'NOT_PUBLISHED',
    ageMs,
    traceparent: null,
  };
}

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

describe('publish failure classification', () => {
  it('calls the cluster failing an outage, however kafkajs wraps it', () => {
    const refused = kafkaError('KafkaJSConnectionError', { code: 'ECONNREFUSED', retriable: true });
    expect(classifyPublishFailure(refused)).toBe('outage');
    expect(classifyPublishFailure(kafkaError('KafkaJSNumberOfRetriesExceeded', { retriable: false, cause: refused }))).toBe('outage');
    expect(classifyPublishFailure(kafkaError('KafkaJSRequestTimeoutError'))).toBe('outage');
    expect(classifyPublishFailure(publishTimeout(100))).toBe('outage');
    for (const type of [
      'LEADER_NOT_AVAILABLE',
      'NOT_LEADER_FOR_PARTITION',
      'NOT_ENOUGH_REPLICAS',
      'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
      'REQUEST_TIMED_OUT',
      'UNKNOWN_TOPIC_OR_PARTITION',
    ])
      expect([type, classifyPublishFailure(kafkaError('KafkaJSProtocolError', { type, retriable: true }))]).toEqual([type, 'outage']);
    expect(classifyPublishFailure(kafkaError('KafkaJSProtocolError', { type: 'SOME_FUTURE_RETRIABLE_ERROR', retriable: true }))).toBe(
      'outage',
    );
    expect(classifyPublishFailure(Object.assign(new Error('socket'), { code: 'ECONNRESET' }))).toBe('outage');
  });
  it("calls a record the broker refuses the record's own, even inside a wrapper", () => {
    for (const type of ['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD', 'CORRUPT_MESSAGE', 'TOPIC_AUTHORIZATION_FAILED'])
      expect([type, classifyPublishFailure(kafkaError('KafkaJSProtocolError', { type, retriable: type === 'CORRUPT_MESSAGE' }))]).toEqual([
        type,
        'record',
      ]);
    const tooLarge = kafkaError('KafkaJSProtocolError', { type: 'MESSAGE_TOO_LARGE', retriable: false });
    expect(classifyPublishFailure(kafkaError('KafkaJSNonRetriableError', { retriable: false, cause: tooLarge }))).toBe('record');
  });
  it('leaves anything else unknown (settled by evidence in the engine)', () => {
    expect(classifyPublishFailure(new Error('something else'))).toBe('unknown');
    expect(classifyPublishFailure(kafkaError('KafkaJSProtocolError', { type: 'SOME_FUTURE_ERROR', retriable: false }))).toBe('unknown');
    expect(classifyPublishFailure(undefined)).toBe('unknown');
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(classifyPublishFailure(loop)).toBe('unknown');
  });
});

describe('failure groups', () => {
  const policy = exponentialBackoff({ baseMs: 1000, maxMs: 8000, maxAttempts: 3, random: () => 1 });
  const error = { code: 'MESSAGE_TOO_LARGE', summary: 'too large' };

  it('retries with growing, bounded backoff and gives up at the third failure', () => {
    const groups = failureGroups(
      [1, 2, 3].map((a) => ({ record: record(a, a), error })),
      { policy, giveUpAgeMs: 0 },
    );
    expect(groups.map((g) => [g.records.map((r) => r.id), g.giveUp, g.delayMs, g.error.code])).toEqual([
      [[1], false, 1000, 'MESSAGE_TOO_LARGE'],
      [[2], false, 2000, 'MESSAGE_TOO_LARGE'],
      [[3], true, 0, 'MESSAGE_TOO_LARGE'],
    ]);
  });
  it('puts rows that fail alike into one group (one UPDATE)', () => {
    const groups = failureGroups(
      [1, 2, 3].map((id) => ({ record: record(id, 1), error })),
      { policy, giveUpAgeMs: 0 },
    );
    expect(groups).toHaveLength(1);
    expect(groups[0]!.records.map((r) => r.id)).toEqual([1, 2, 3]);
  });
  it('gives up a row past the last-resort age with its own reason code, whatever its attempts', () => {
    const [g] = failureGroups([{ record: record(1, 1, 90_000), error }], { policy, giveUpAgeMs: 60_000 });
    expect(g).toMatchObject({ giveUp: true, error: { code: 'RELAY_GIVE_UP_AGE' } });
    expect(g!.error.summary).toContain('MESSAGE_TOO_LARGE');
    expect(failureGroups([{ record: record(1, 1, 90_000), error }], { policy, giveUpAgeMs: 0 })[0]!.giveUp).toBe(false);
  });
});

describe('publish timeout and relay options', () => {
  it('times out a publish that does not answer, without an unhandled rejection later', async () => {
    // Node reports a rejection nobody handles once the microtask queue drains; listen for it around the race.
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    nodeProcess.on('unhandledRejection', listener);
    try {
      let rejectLater: (e: Error) => void = () => undefined;
      const slow = new Promise<void>((_, reject) => (rejectLater = reject));
      await expect(withTimeout(slow, 10, () => new Error('timed out'))).rejects.toThrow('timed out');
      rejectLater(new Error('late failure'));
      // Let the late rejection travel: microtasks, then a few turns of the event loop (timers and immediates).
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      nodeProcess.off('unhandledRejection', listener);
    }
    await expect(withTimeout(Promise.resolve(7), 1000, 'x')).resolves.toBe(7);
    await expect(withTimeout(new Promise(() => undefined), 5, 'probe')).rejects.toMatchObject({
      code: 'PUBLISH_TIMEOUT',
      name: 'OperationTimeoutError',
    });
  });
  it('refuses a lease that does not outlast the publish timeout', () => {
    expect(relayProblems({ leaseMs: 30000, publishTimeoutMs: 10000, batchSize: 500, pollIntervalMs: 200 })).toEqual([]);
    expect(relayProblems({ leaseMs: 5000, publishTimeoutMs: 5000, batchSize: 500, pollIntervalMs: 200 })).toEqual([
      expect.stringMatching(/must be longer than the publish timeout/),
    ]);
  });
});
