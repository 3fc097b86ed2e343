// The catch-up check against a snapshot: on a topic that keeps growing (a busy system) the projector
// never reaches the live end, but it does reach the end offsets recorded when the scan started.
import { fixedClock } from '../../shared/clock';
import type { ProjectionProgressSource } from '../../projections/freshness/projectionProgress';
import type { PendingPublications } from '../../projections/freshness/pendingPublications';
import { unappliedOf } from '../ports';
import { fromFreshnessSources } from './pipelineProbe';

/** A topic receiving 3 messages per read on each of two partitions; the projector always 2 behind the live end. */
function busyTopic(): ProjectionProgressSource {
  let end = 100n;
  return {
    progress: async () => ({ ok: true, value: [] }),
    async logOffsets() {
      end += 3n;
      return [0, 1].map((partition) => ({ partition, low: 0n, high: end }));
    },
    async appliedOffsets() {
      end += 3n;
      return new Map([0, 1].map((p) => [p, end - 2n]));
    },
    close: async () => undefined,
  };
}

const noPending = {} as PendingPublications;

describe('pipeline probe', () => {
  it('is caught up once the checkpoints reach the snapshot, although the live end moves on', async () => {
    const probe = fromFreshnessSources({ pending: noPending, progress: busyTopic(), clock: fixedClock(new Date()), pollMs: 1 });
    const snap = await probe.snapshot('fitness');
    expect(snap.partitions).toEqual([
      { partition: 0, low: 0n, high: 103n },
      { partition: 1, low: 0n, high: 103n },
    ]);
    expect(await probe.behind(snap, 0)).toBe(0);
  });

  it('counts what is unapplied per partition, never below the log start', () => {
    const snap = {
      domain: 'orders' as const,
      partitions: [
        { partition: 0, low: 0n, high: 10n },
        { partition: 1, low: 50n, high: 60n },
        { partition: 2, low: 5n, high: 5n },
      ],
    };
    // Partition 0: 4 to apply; partition 1: the checkpoint (20) is below the log start (50), so 10; partition 2: empty.
    expect(
      unappliedOf(
        snap,
        new Map([
          [0, 6n],
          [1, 20n],
        ]),
      ),
    ).toBe(14);
    expect(
      unappliedOf(
        snap,
        new Map([
          [0, 10n],
          [1, 60n],
        ]),
      ),
    ).toBe(0);
  });
});
