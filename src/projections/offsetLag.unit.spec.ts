// The one lag rule: counted from the checkpoint, never from below the log start (expired offsets are
// not still to apply), and never negative.
import { appliedFrom, unappliedMessages } from './offsetLag';

describe('offset lag', () => {
  const log = { low: 10n, high: 25n };

  it('counts from the checkpoint up to the log end', () => {
    expect(unappliedMessages(log, 20n)).toBe(5);
    expect(unappliedMessages(log, 25n)).toBe(0);
  });

  it('starts at the log start without a checkpoint or below it', () => {
    expect(appliedFrom(log, undefined)).toBe(10n);
    expect(appliedFrom(log, 3n)).toBe(10n);
    expect(unappliedMessages(log, undefined)).toBe(15);
    expect(unappliedMessages(log, 3n)).toBe(15);
  });

  it('is 0 for a checkpoint past the log end', () => {
    expect(unappliedMessages(log, 30n)).toBe(0);
    expect(unappliedMessages({ low: 0n, high: -1n }, 0n)).toBe(0);
  });
});
