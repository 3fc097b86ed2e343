// The erasure runner and its ledger on the real PostgreSQL, with stand-in stores (each store's own
// erasure is tested against its engine next to it; test/e2e/erasure.e2e.spec.ts runs them all):
// the source is erased before the others; a store that must wait is called again; a failed step is
// saved and retried; a verification that finds anything leaves the erasure VERIFYING and sends that
// store back; a clean one completes it with a certificate and forgets the subject's id; a lease keeps
// two runners off one erasure; a repeated request returns the running erasure; the limit refuses.
import type { ErasureJob, SourceErasure, StoreErasure, StoreSearch } from '../domains/contract/erasure';
import { fixedClock } from '../shared/clock';
import { TidemarkError } from '../shared/errors';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';
import { testLogger } from '../../test/support/logCapture';
import { claimDueErasure } from './ledger/sql/claimDueErasure';
import { erasureById } from './ledger/sql/selectErasures';
import { runErasurePass, type ErasureRunnerDeps } from './runner';
import { erasureService } from './service';

const KEY = Buffer.alloc(32, 7);

/** A store that holds `left` traces, erases `perStep` per call, and can be told to fail once. */
function fakeStore(store: string, o: { left: number; perStep?: number; failOnce?: boolean; lateArrival?: boolean; calls: string[] }) {
  let left = o.left;
  let fail = o.failOnce ?? false;
  let late = o.lateArrival ?? false;
  const s: StoreErasure = {
    store,
    async erase(job: ErasureJob) {
      o.calls.push(`${store}:erase`);
      if (fail) {
        fail = false;
        throw new TidemarkError('STORE_UNAVAILABLE', `${store} down`);
      }
      const n = Math.min(left, o.perStep ?? left);
      left -= n;
      expect(job.subjectId).toBe('42');
      const done = left === 0;
      // A record published after this step (an in-flight publication): the step said done, the search will not.
      if (late) [late, left] = [false, left + 1];
      return { affected: n, done };
    },
    async verify(): Promise<StoreSearch> {
      o.calls.push(`${store}:verify`);
      return { store, searched: [`${store}.table`], searchedAt: new Date(), found: left };
    },
  };
  return s;
}

describe('erasure runner', () => {
  let env: TestEnv;
  const clock = fixedClock('2026-12-01T10:00:00Z');
  beforeAll(async () => {
    env = await createTestEnv();
  }, 120000);
  afterAll(async () => env?.cleanup());

  function setup(o: { kafkaPerStep?: number; failOnce?: boolean; lateArrival?: boolean } = {}) {
    const calls: string[] = [];
    const mysql = fakeStore('mysql', { left: 3, calls });
    const source: SourceErasure = {
      ...mysql,
      store: 'mysql',
      erase: mysql.erase,
      verify: mysql.verify,
      collect: async () => ['101', '201', '301'],
      checkSubject: (id) => (/^[1-9][0-9]*$/.test(id) ? undefined : 'userId must be a positive integer'),
    };
    const kafka = fakeStore('kafka', { left: 3, perStep: o.kafkaPerStep ?? 3, lateArrival: o.lateArrival ?? false, calls });
    const clickhouse = fakeStore('clickhouse', { left: 3, failOnce: o.failOnce ?? false, calls });
    const deps = (owner: string): ErasureRunnerDeps => ({
      pg: env.resources.pg,
      storesOf: () => ({ source, others: [kafka, clickhouse] }),
      clock,
      owner,
      retryMs: 1000,
      leaseMs: 60000,
      logger: testLogger(),
    });
    const service = erasureService({
      pg: env.resources.pg,
      domains: [{ domain: 'fitness', kind: 'student', mode: 'delete', source }],
      key: KEY,
      clock,
      ids: { uuid: () => crypto.randomUUID() },
      deadlineHours: 72,
      perMinute: 100,
      logger: testLogger(),
    });
    return { calls, kafka, clickhouse, deps, service };
  }

  /** Passes until the erasure completes (the clock moves past each retry). */
  async function runUntilDone(deps: ErasureRunnerDeps, id: string, maxPasses = 20) {
    for (let i = 0; i < maxPasses; i++) {
      await runErasurePass(deps);
      const r = await erasureById(env.resources.pg, id);
      if (r?.status === 'COMPLETED') return r;
      clock.advance(1001);
    }
    throw new Error('erasure did not complete');
  }

  it('erases the source first, retries what waits or fails, then certifies and forgets the subject', async () => {
    const { calls, deps, service } = setup({ kafkaPerStep: 1, failOnce: true });
    const { record, created } = await service.erase({
      kind: 'student',
      subjectId: '42',
      reason: 'parent asked (art. 17)',
      requestedBy: 'op',
    });
    expect(created).toBe(true);
    expect(record).toMatchObject({ status: 'REQUESTED', subjectId: '42', aggregateIds: ['101', '201', '301'] });
    const again = await service.erase({ kind: 'student', subjectId: '42', reason: 'asked twice', requestedBy: 'op2' });
    expect(again).toMatchObject({ created: false, record: { id: record.id } });

    const done = await runUntilDone(deps('runner-a'), record.id);
    expect(calls[0]).toBe('mysql:erase');
    expect(calls.filter((c) => c === 'kafka:erase')).toHaveLength(3);
    expect(calls.filter((c) => c === 'clickhouse:erase')).toHaveLength(2); // one failed, retried
    expect(done.status).toBe('COMPLETED');
    expect(done.subjectId).toBeNull();
    expect(done.certificate?.map((c) => [c.store, c.found])).toEqual([
      ['mysql', 0],
      ['kafka', 0],
      ['clickhouse', 0],
    ]);
    expect(done.progress.kafka).toMatchObject({ done: true, affected: 3, steps: 3 });
    expect(done.attempts).toBe(1);
    expect(JSON.stringify(done)).not.toContain('"42"');
  });

  it('stays VERIFYING while a store still holds a trace, erases it again, then completes', async () => {
    const { deps, service } = setup({ lateArrival: true });
    const { record } = await service.erase({ kind: 'student', subjectId: '42', reason: 'school left', requestedBy: 'op' });
    const d = deps('runner-b');
    await runErasurePass(d);
    const r = (await erasureById(env.resources.pg, record.id))!;
    expect(r.status).toBe('VERIFYING');
    expect(r.findings).toBe(1);
    expect(r.certificate?.find((c) => c.store === 'kafka')?.found).toBe(1);
    expect(r.progress.kafka?.done).toBe(false);
    const done = await runUntilDone(d, record.id);
    expect(done.findings).toBe(0);
  });

  it('keeps a second runner off an erasure another one holds', async () => {
    const { deps, service } = setup();
    const { record } = await service.erase({ kind: 'student', subjectId: '42', reason: 'lease test', requestedBy: 'op' });
    const held = await claimDueErasure(env.resources.pg, 'runner-c', clock.now(), 60000);
    expect(held?.id).toBe(record.id);
    expect(await runErasurePass(deps('runner-d'))).toBeUndefined();
    clock.advance(60001); // the holder's lease runs out: another runner takes it
    expect(await runErasurePass(deps('runner-d'))).toBeDefined();
    await runUntilDone(deps('runner-d'), record.id);
  });

  it('refuses a bad reason, a bad id and requests over the limit, changing nothing', async () => {
    const { service } = setup();
    const before = await env.resources.pg('erasures').count<{ n: string }[]>({ n: '*' });
    await expect(service.erase({ kind: 'student', subjectId: '42', reason: ' ', requestedBy: 'op' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(service.erase({ kind: 'student', subjectId: '42', reason: 'x'.repeat(501), requestedBy: 'op' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(service.erase({ kind: 'student', subjectId: '-1', reason: 'ok', requestedBy: 'op' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(service.erase({ kind: 'customer', subjectId: 'c1', reason: 'ok', requestedBy: 'op' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const limited = erasureService({ ...serviceDeps(), perMinute: 1 });
    await limited.erase({ kind: 'student', subjectId: '77', reason: 'first', requestedBy: 'op' }).catch(() => undefined);
    await expect(limited.erase({ kind: 'student', subjectId: '78', reason: 'second', requestedBy: 'op' })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    const after = await env.resources.pg('erasures').count<{ n: string }[]>({ n: '*' });
    expect(Number(after[0]!.n) - Number(before[0]!.n)).toBeLessThanOrEqual(1);
  });

  function serviceDeps() {
    const source: SourceErasure = {
      store: 'mysql',
      erase: async () => ({ affected: 0, done: true }),
      verify: async () => ({ store: 'mysql', searched: [], searchedAt: new Date(), found: 0 }),
      collect: async () => [],
      checkSubject: () => undefined,
    };
    return {
      pg: env.resources.pg,
      domains: [{ domain: 'fitness', kind: 'student' as const, mode: 'delete' as const, source }],
      key: KEY,
      clock,
      ids: { uuid: () => crypto.randomUUID() },
      deadlineHours: 72,
      perMinute: 1,
      logger: testLogger(),
    };
  }
});
