// Relay failure decisions and the operator view's cursor.
import { decodeCursor, encodeCursor } from '../../publication/kafkaFirst/operations';
import { exponentialBackoff } from '../backoff';
import { decideRelayFailure } from './decideRelayFailure';

describe('decideRelayFailure', () => {
  const policy = exponentialBackoff({ baseMs: 1000, maxMs: 8000, maxAttempts: 3, random: () => 1 });

  it('schedules retries with growing, bounded backoff and dead-letters on the third failure', () => {
    expect(decideRelayFailure(0, policy)).toEqual({ relayAttempts: 1, status: 'NOT_PUBLISHED', retryInMs: 1000 });
    expect(decideRelayFailure(1, policy)).toEqual({ relayAttempts: 2, status: 'NOT_PUBLISHED', retryInMs: 2000 });
    expect(decideRelayFailure(2, policy)).toEqual({ relayAttempts: 3, status: 'DEAD_LETTER', retryInMs: 0 });
  });

  it('jitters the delay between half the ceiling and the ceiling, never above the maximum', () => {
    const low = exponentialBackoff({ baseMs: 1000, maxMs: 8000, maxAttempts: 10, random: () => 0 });
    expect(decideRelayFailure(0, low).retryInMs).toBe(500);
    expect(decideRelayFailure(8, exponentialBackoff({ baseMs: 1000, maxMs: 8000, maxAttempts: 10, random: () => 1 })).retryInMs).toBe(8000);
  });
});

describe('publication page cursors', () => {
  it('round-trips a position and rejects anything else with a validation error', () => {
    const p = { createdAtMs: 1767225600123, store: 2, id: 42 };
    expect(decodeCursor(encodeCursor(p))).toEqual(p);
    for (const bad of ['', 'not-base64!', Buffer.from('[1,2]').toString('base64url'), Buffer.from('[1,-2,3]').toString('base64url')])
      expect(() => decodeCursor(bad)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: 'after' } }));
  });
});
