// Which repair each kind gets, and the rate limiter that keeps repairs from starving live traffic.
import { fitnessEvent } from '../../domains/fitness/events';
import { fixedClock } from '../../shared/clock';
import { decideRepair } from './decideRepair';
import { tokenBucket } from './rateLimiter';

const state = {
  dataId: 900001,
  detectId: 10001,
  userId: 4,
  projectId: 3,
  schoolId: 77,
  grade: 5,
  result: '2.310',
  unit: 'm',
  version: 4,
  isDeleted: false,
  createdAt: new Date('2026-03-01T08:00:00Z'),
  updatedAt: new Date('2026-03-01T09:00:00Z'),
  shard: 1,
};

describe('decideRepair', () => {
  it('replays the authoritative state with its existing version and eventId, never a new one', () => {
    const current = fitnessEvent('FitnessResultCorrected', state, 1);
    for (const kind of ['MISSING', 'STALE_VERSION'] as const) {
      const d = decideRepair(kind, current);
      expect(d).toEqual({ action: 'REPLAY', event: current });
      expect('event' in d && d.event.version).toBe(4);
      expect('event' in d && d.event.eventId).toBe('fitness-result-900001-v4');
    }
  });

  it('delivers the versioned tombstone for a deletion not applied (and for a result deleted since)', () => {
    const tombstone = fitnessEvent('FitnessResultDeleted', { ...state, version: 5, isDeleted: true }, 1);
    expect(decideRepair('DELETION_NOT_APPLIED', tombstone)).toEqual({ action: 'TOMBSTONE', event: tombstone });
    expect(decideRepair('STALE_VERSION', tombstone)).toEqual({ action: 'TOMBSTONE', event: tombstone });
  });

  it('rebuilds for equal-version content errors, and never touches unexpected rows automatically', () => {
    expect(decideRepair('CONTENT_MISMATCH', undefined)).toEqual({ action: 'REBUILD' });
    expect(decideRepair('UNEXPECTED_ROW', undefined)).toMatchObject({ action: 'INVESTIGATE' });
  });

  it('refuses a replay when the source no longer holds the aggregate', () => {
    expect(decideRepair('MISSING', undefined)).toMatchObject({ refuse: expect.stringContaining('no longer holds') });
  });
});

describe('tokenBucket', () => {
  it('lets a burst through at once and spaces the rest at the configured rate', async () => {
    const clock = fixedClock('2026-03-01T00:00:00Z');
    const limiter = tokenBucket({ perSecond: 10, burst: 10, clock });
    await limiter.acquire(10);
    let granted = false;
    const next = limiter.acquire(5).then(() => (granted = true));
    await new Promise((r) => setImmediate(r));
    expect(granted).toBe(false);
    clock.advance(500);
    await next;
    expect(granted).toBe(true);
  });
});
