// The ordering rule behind "FRESH means it", with fakes that answer from a mutable world when a read
// starts and are released by hand: a marker's Kafka log-end read starts only after its pending read
// completed (never joining an older read), reads are shared forward in time only, the applied snapshot
// is reused only when it covers the fresh log end, and a per-aggregate marker waits only for its own
// partition. The scenario of issue 28: a relay sends version 2 while another request's progress read
// is in flight; a request that then finds nothing pending must not be answered from that read.
import { fixedClock } from '../../shared/clock';
import type { AppliedSnapshot } from './appliedSnapshot';
import { aggregatePartition } from './aggregatePartition';
import { noDeadLetters } from './deadLetterScope';
import { emptyPending, type Known, type PendingSummary } from './decideFreshness';
import { createFreshnessService } from './freshnessService';
import type { PendingPublications } from './pendingPublications';
import type { LogOffsets } from './partitionProgress';
import type { ProjectorStateSource } from './projectionProgress';

interface World {
  pending: number;
  /** Log end and checkpoint per partition. */
  high: number[];
  applied: number[];
}

function harness(world: World, o: { holdEnds?: boolean } = {}) {
  const log: string[] = [];
  const held: (() => void)[] = [];
  let inFlightEnds = 0;
  let maxInFlightEnds = 0;
  const pending: PendingPublications = {
    summarize: async () => {
      log.push('pending:start');
      const value: PendingSummary = { ...emptyPending(), pending: world.pending, oldestAtMs: world.pending ? Date.now() : null };
      await Promise.resolve();
      log.push('pending:end');
      return { ok: true, value } as Known<PendingSummary>;
    },
    byAggregate: async (_scope, ids) => {
      log.push('pending:start');
      await Promise.resolve();
      log.push('pending:end');
      return { ok: true, value: new Map(ids.map((id) => [id, emptyPending()])) };
    },
    pendingAggregates: async () => ({ ok: true, value: new Set<string>() }),
  };
  const progress: ProjectorStateSource = {
    logEnds: async () => {
      log.push('ends:start');
      inFlightEnds++;
      maxInFlightEnds = Math.max(maxInFlightEnds, inFlightEnds);
      const answer: LogOffsets[] = world.high.map((h, partition) => ({ partition, low: 0n, high: BigInt(h) }));
      if (o.holdEnds) await new Promise<void>((r) => held.push(r));
      inFlightEnds--;
      log.push('ends:end');
      return answer;
    },
    applied: async () => {
      log.push('applied');
      const s: AppliedSnapshot = {
        positions: new Map(world.applied.map((a, partition) => [partition, { partition, nextOffset: BigInt(a), sourceCommitMs: 1 }])),
        expired: new Map(),
        deadLetters: noDeadLetters(),
      };
      return s;
    },
    offsetsAt: () => Promise.resolve(new Map()),
    close: () => Promise.resolve(),
  };
  const clock = fixedClock('2026-03-01T12:00:00Z');
  const service = createFreshnessService({ pending, progress, clock, cacheMs: 1000, staleAfterMs: 60000 });
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setImmediate(r));
    if (!cond()) throw new Error('condition never held');
  };
  return { log, held, service, clock, until, maxInFlight: () => maxInFlightEnds };
}

const scope = { domain: 'fitness' as const, dataEquals: { detectId: 1 } };

describe('freshness inputs are read in order, and shared forward in time only', () => {
  it('reads the log end only after the pending read completed', async () => {
    const h = harness({ pending: 0, high: [1], applied: [1] });
    expect((await h.service.forScope(scope)).status).toBe('FRESH');
    expect(h.log.indexOf('pending:end')).toBeLessThan(h.log.indexOf('ends:start'));
    expect(h.log.indexOf('ends:end')).toBeLessThan(h.log.indexOf('applied'));
  });

  it('a request never uses a log-end read that started before its pending read completed (the issue 28 race)', async () => {
    const world: World = { pending: 0, high: [1], applied: [1] };
    const h = harness(world, { holdEnds: true });
    const a = h.service.forScope(scope); // version 1 applied; A's log-end read is in flight
    await h.until(() => h.held.length === 1);
    world.high = [2]; // the correction committed and the relay sent it (its row is SENT: nothing pending)
    const b = h.service.forScope(scope);
    await h.until(() => h.log.filter((l) => l === 'pending:end').length === 2);
    h.held.shift()!(); // A's read answers (with the log end it saw when it started)
    expect((await a).status).toBe('FRESH');
    await h.until(() => h.held.length === 1);
    h.held.shift()!();
    const fb = await b;
    expect(fb).toMatchObject({ status: 'CATCHING_UP', reason: 'CONSUMER_LAG', lagMessages: 1 });
    expect(h.log.filter((l) => l === 'ends:start')).toHaveLength(2);
  });

  it('concurrent requests share one read each, and at most one log-end read runs at a time', async () => {
    const h = harness({ pending: 0, high: [3], applied: [3] }, { holdEnds: true });
    const first = [h.service.forScope(scope), h.service.forScope(scope), h.service.forScope(scope)];
    await h.until(() => h.held.length === 1);
    expect(h.log.filter((l) => l === 'pending:start')).toHaveLength(1);
    const later = [h.service.forScope(scope), h.service.forScope(scope)]; // must wait for a read of their own
    await h.until(() => h.log.filter((l) => l === 'pending:end').length === 2);
    h.held.shift()!();
    await h.until(() => h.held.length === 1);
    h.held.shift()!();
    for (const f of await Promise.all([...first, ...later])) expect(f.status).toBe('FRESH');
    expect(h.log.filter((l) => l === 'ends:start')).toHaveLength(2);
    expect(h.maxInFlight()).toBe(1);
  });

  it('reuses the applied snapshot only while it covers the fresh log end', async () => {
    const world: World = { pending: 0, high: [1], applied: [1] };
    const h = harness(world);
    await h.service.forScope(scope);
    await h.service.forScope(scope);
    expect(h.log.filter((l) => l === 'applied')).toHaveLength(1); // covered: no ClickHouse read
    world.high = [2];
    expect((await h.service.forScope(scope)).status).toBe('CATCHING_UP'); // not covered: read again
    world.applied = [2];
    expect((await h.service.forScope(scope)).status).toBe('FRESH');
    expect(h.log.filter((l) => l === 'applied')).toHaveLength(3);
    h.clock.advance(1001);
    await h.service.forScope(scope);
    expect(h.log.filter((l) => l === 'applied')).toHaveLength(4); // older than cacheMs: read again
  });

  it('a per-aggregate marker waits for its own partition only', async () => {
    const id = '1700';
    const own = aggregatePartition('fitness', id, 3);
    const other = (own + 1) % 3;
    const world: World = { pending: 0, high: [5, 5, 5], applied: [5, 5, 5] };
    const h = harness(world);
    world.high[other] = 9;
    expect((await h.service.forAggregates('fitness', [id]))[0]).toMatchObject({ status: 'FRESH' });
    world.high[own] = 6;
    expect((await h.service.forAggregates('fitness', [id]))[0]).toMatchObject({ status: 'CATCHING_UP', lagMessages: 1 });
  });
});
