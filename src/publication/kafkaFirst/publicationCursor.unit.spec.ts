// The kafka-first operator view's page cursor.
import { decodePosition, encodePosition } from './operations';

describe('publication page cursors', () => {
  it('round-trips a position and rejects anything else with a validation error', () => {
    const p = { createdAtMs: 1767225600123, store: 2, id: 42 };
    expect(decodePosition(encodePosition(p))).toEqual(p);
    for (const bad of ['', 'not-base64!', Buffer.from('[1,2]').toString('base64url'), Buffer.from('[1,-2,3]').toString('base64url')])
      expect(() => decodePosition(bad)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: 'after' } }));
  });
});
