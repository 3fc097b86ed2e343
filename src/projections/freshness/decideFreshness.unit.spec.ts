import { decideFreshness, mergePending, type FreshnessInputs, type PartitionProgress, type PendingSummary } from './decideFreshness';

const now = Date.parse('2026-03-01T12:00:00Z');
const none: PendingSummary = { pending: 0, stuck: 0, oldestAtMs: null };
const caughtUp: PartitionProgress[] = [
  { partition: 0, behind: 0, appliedCommitMs: now - 5000, stalled: false },
  { partition: 1, behind: 0, appliedCommitMs: null, stalled: false }, // empty partition
];
const inputs = (over: Partial<FreshnessInputs> = {}): FreshnessInputs => ({
  asOfMs: now,
  staleAfterMs: 60000,
  pending: { ok: true, value: none },
  progress: { ok: true, value: caughtUp },
  ...over,
});

describe('the freshness rule', () => {
  it('is FRESH when nothing is pending and every published event is applied', () => {
    expect(decideFreshness(inputs())).toEqual({
      status: 'FRESH',
      reason: 'UP_TO_DATE',
      detail: expect.any(String),
      watermark: new Date(now),
      lagMs: 0,
      pendingPublications: 0,
      lagMessages: 0,
      asOf: new Date(now),
    });
  });

  it('is STALE with EVENTS_EXPIRED while expired offsets are not reconciled, before any other rule', () => {
    const expired = [{ ...caughtUp[0]!, expiredUnreconciled: 7 }, caughtUp[1]!];
    const stuck = { pending: 0, stuck: 2, oldestAtMs: now - 1000 };
    const f = decideFreshness(inputs({ progress: { ok: true, value: expired }, pending: { ok: true, value: stuck } }));
    expect(f).toMatchObject({ status: 'STALE', reason: 'EVENTS_EXPIRED' });
    expect(f.detail).toContain('7 event(s)');
    expect(
      decideFreshness(inputs({ progress: { ok: true, value: [{ ...caughtUp[0]!, expiredUnreconciled: 0 }, caughtUp[1]!] } })).reason,
    ).toBe('UP_TO_DATE');
  });

  it('is CATCHING_UP while publications in scope are pending, with the watermark at the oldest', () => {
    const f = decideFreshness(inputs({ pending: { ok: true, value: { pending: 2, stuck: 0, oldestAtMs: now - 3000 } } }));
    expect(f).toMatchObject({
      status: 'CATCHING_UP',
      reason: 'PENDING_PUBLICATIONS',
      pendingPublications: 2,
      lagMs: 3000,
      watermark: new Date(now - 3000),
    });
  });

  it('is CATCHING_UP while the projector is behind, with the watermark at the last applied commit', () => {
    const f = decideFreshness(
      inputs({ progress: { ok: true, value: [{ partition: 0, behind: 4, appliedCommitMs: now - 1500, stalled: false }, caughtUp[1]!] } }),
    );
    expect(f).toMatchObject({ status: 'CATCHING_UP', reason: 'CONSUMER_LAG', lagMessages: 4, lagMs: 1500 });
  });

  it('has no watermark while a lagging partition was never applied', () => {
    const f = decideFreshness(
      inputs({ progress: { ok: true, value: [{ partition: 0, behind: 1, appliedCommitMs: null, stalled: false }] } }),
    );
    expect(f).toMatchObject({ status: 'CATCHING_UP', watermark: null, lagMs: null });
  });

  it('is STALE when a publication in scope is parked or dead-lettered, even if nothing else is pending', () => {
    const f = decideFreshness(inputs({ pending: { ok: true, value: { pending: 0, stuck: 1, oldestAtMs: now - 1000 } } }));
    expect(f).toMatchObject({ status: 'STALE', reason: 'PARKED_OR_DEAD_LETTERED', pendingPublications: 1 });
  });

  it('is STALE when the oldest pending publication is older than the threshold', () => {
    expect(decideFreshness(inputs({ pending: { ok: true, value: { pending: 1, stuck: 0, oldestAtMs: now - 60001 } } }))).toMatchObject({
      status: 'STALE',
      reason: 'PENDING_TOO_OLD',
    });
    expect(decideFreshness(inputs({ pending: { ok: true, value: { pending: 1, stuck: 0, oldestAtMs: now - 60000 } } }))).toMatchObject({
      status: 'CATCHING_UP',
    });
  });

  it('is STALE when published events older than the threshold are still unapplied', () => {
    const f = decideFreshness(
      inputs({ progress: { ok: true, value: [{ partition: 0, behind: 9, appliedCommitMs: now - 120000, stalled: true }] } }),
    );
    expect(f).toMatchObject({ status: 'STALE', reason: 'PROJECTOR_STALLED', lagMessages: 9 });
  });

  it('is STALE with no watermark when a store cannot be read, and says which', () => {
    const f = decideFreshness(inputs({ pending: { ok: false, unavailable: ['mysql shard 1'] } }));
    expect(f).toMatchObject({ status: 'STALE', reason: 'STATE_UNKNOWN', watermark: null, lagMs: null });
    expect(f.detail).toContain('mysql shard 1');
  });

  it('merges pending summaries of several stores', () => {
    expect(mergePending({ pending: 1, stuck: 0, oldestAtMs: 5 }, { pending: 2, stuck: 1, oldestAtMs: 3 })).toEqual({
      pending: 3,
      stuck: 1,
      oldestAtMs: 3,
    });
    expect(mergePending(none, none)).toEqual(none);
  });
});
