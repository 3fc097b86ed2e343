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
    // The limiter's sleeps advance the clock it reads: the time it lets pass is counted, not measured.
    const clock = fixedClock('2026-03-01T00:00:00Z');
    const start = clock.now().getTime();
    const waits: number[] = [];
    const limiter = tokenBucket({
      perSecond: 10,
      burst: 10,
      clock,
      wait: async (ms) => {
        waits.push(ms);
        clock.advance(ms);
      },
    });
    const elapsed = () => clock.now().getTime() - start;
    await limiter.acquire(10);
    expect(waits).toEqual([]); // the burst goes through at once
    await limiter.acquire(5);
    expect(elapsed()).toBe(500); // 5 more at 10/s: half a second
    // 100 units in slices of the burst: 10 s of the clock, never less.
    for (let i = 0; i < 10; i++) await limiter.acquire(10);
    expect(elapsed()).toBe(10_500);
    expect(waits.every((ms) => ms > 0)).toBe(true);
  });

  it('admits no more than the rate over any stretch of time, whoever asks', async () => {
    const clock = fixedClock('2026-03-01T00:00:00Z');
    const granted: number[] = [];
    const limiter = tokenBucket({ perSecond: 4, burst: 2, clock, wait: async (ms) => clock.advance(ms) });
    // Three callers at once, 20 units in all: first come, first served, 2 at once and then 4 a second.
    await Promise.all(
      [8, 7, 5].map(async (n) => {
        for (let i = 0; i < n; i++) {
          await limiter.acquire(1);
          granted.push(clock.now().getTime());
        }
      }),
    );
    const t0 = granted[0]!;
    expect(granted).toHaveLength(20);
    // The k-th unit (from 0) is granted no earlier than (k - burst + 1) / rate seconds after the first.
    granted.forEach((t, k) => expect(t - t0).toBeGreaterThanOrEqual(Math.max(0, ((k - 1) / 4) * 1000)));
    expect(granted[19]! - t0).toBe(4500);
  });
});
