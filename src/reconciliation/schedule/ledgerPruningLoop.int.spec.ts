// The reconciliation ledger's retention loop (ledgerPruning.ts startLedgerPruning) on real PostgreSQL,
// on its own schedule (a short interval): the test never calls a pass. Runs older than the retention
// disappear, a pass that fails in the engine is logged and the next one goes on, and stop() waits for
// the pass in flight (held by a table lock) to finish before it resolves.
import { messageCollectingLogger } from '../../../test/support/logCapture';
import { systemClock } from '../../shared/clock';
import { waitFor, type Stoppable } from '../../shared/lifecycle';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { startLedgerPruning } from './ledgerPruning';

jest.setTimeout(90000);

const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600_000);

describe('the ledger pruning loop on its own schedule (PostgreSQL)', () => {
  let env: TestEnv;
  let loop: Stoppable | undefined;
  const { logger, messages: warnings } = messageCollectingLogger('warn');

  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await loop?.stop();
    await env?.cleanup();
  });

  const pg = () => env.resources.pg;
  const addRuns = (labels: string[], ageDays: number) =>
    pg()('reconciliation_runs').insert(
      labels.map((note) => ({
        domain: 'fitness',
        scope_key: 'fitness:1',
        scope: JSON.stringify({ domain: 'fitness', detectId: 1 }),
        level_requested: 'IDS',
        trigger: 'SCHEDULE',
        requested_by: 'test',
        note,
        started_at: daysAgo(ageDays),
        finished_at: daysAgo(ageDays),
      })),
    );
  const notes = async () => ((await pg()('reconciliation_runs').orderBy('note').pluck('note')) as string[]).sort();

  it('prunes old runs by itself, goes on after a failed pass, and stop() waits for the pass in flight', async () => {
    await addRuns(['old-1', 'old-2', 'old-3'], 400);
    await addRuns(['recent'], 10);
    loop = startLedgerPruning({ pg: pg(), clock: systemClock, logger, retentionDays: 365, intervalMs: 200, batch: 1 });
    await waitFor(async () => (await notes()).join() === 'recent', { timeoutMs: 30000, what: 'the loop pruning the old runs' });

    // The table goes away under the loop: passes fail in the engine, are logged, and the loop goes on.
    await pg().raw('ALTER TABLE reconciliation_runs RENAME TO reconciliation_runs_away');
    await waitFor(() => warnings.filter((w) => w === 'pruning the reconciliation ledger failed').length >= 2, {
      timeoutMs: 30000,
      what: 'two failed passes',
    });
    await pg().raw('ALTER TABLE reconciliation_runs_away RENAME TO reconciliation_runs');
    await addRuns(['old-4', 'old-5'], 400);
    await waitFor(async () => (await notes()).join() === 'recent', { timeoutMs: 30000, what: 'a later pass pruning the new old runs' });

    // A pass held by a lock on the table: stop() resolves only once that pass has finished its work.
    await addRuns(['old-6', 'old-7'], 400);
    const trx = await pg().transaction();
    let stopped = false;
    try {
      await trx.raw('LOCK TABLE reconciliation_runs IN ACCESS EXCLUSIVE MODE');
      await waitFor(
        async () => {
          const r = await pg().raw<{ rows: { n: string }[] }>(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          );
          return Number(r.rows[0]!.n) > 0;
        },
        { timeoutMs: 30000, what: 'a pass waiting for the lock' },
      );
      const stopping = loop.stop().then(() => (stopped = true));
      await new Promise((r) => setImmediate(r));
      expect(stopped).toBe(false);
      await trx.commit();
      await stopping;
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
    loop = undefined;
    // The pass in flight was finished, not dropped: both old runs are gone.
    expect(await notes()).toEqual(['recent']);
  });
});
