// SIGTERM of a reconciler process mid-pass (issue 34). The reconciler is a real `node --import tsx
// src/main.ts --roles reconciler` process against the real engines; the gateway, relay and projector that
// wrote two campaigns run in this test process. Its scheduled pass is held inside it with real data:
// another session holds PostgreSQL's projection_quarantine (LOCK TABLE ... ACCESS EXCLUSIVE), which a run
// reads after its run row is written (the quarantine sweep before the target scan), so the first
// campaign's run waits there, RUNNING, and the test sees its statement waiting for the lock. On SIGTERM
// the process keeps the lease while that pass runs (no other reconciler may start the schedule
// meanwhile), and once the lock goes it finishes the run, starts no other, gives the lease back and exits
// 0 by itself within the drain bound. A second reconciler then takes the lease at once (it would
// otherwise wait RECONCILE_INTERVAL_MS + 300 s for it to expire) and reconciles the campaign left over.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { SCHEDULER_LEASE } from '../../src/reconciliation/schedule/scheduledReconciler';
import { sleep, waitFor } from '../../src/shared/lifecycle';
import { roleProcessEnv, startRoleProcess, type RoleProcess } from '../faults/support/roleProcesses';
import { RecordFitnessResultDocument } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

/** The drain bound the role processes are held to (test/e2e/roleDrain.e2e.spec.ts, docs/faults.md). */
const GRACE_MS = 20000;
const CAMPAIGNS = [34101, 34102];
/** One pass at start, then none for ten minutes: a lease is then held 15 minutes unless given back. */
const INTERVAL_MS = 600000;
const QUIET_MS = 1000;

interface RunRow {
  scope_key: string;
  trigger: string;
  requested_by: string;
  outcome: string | null;
  finished_at: Date | null;
}

describe('SIGTERM to a reconciler process mid-pass', () => {
  let env: TestEnv;
  let app: Tidemark;
  let logDir: string;
  const started: RoleProcess[] = [];

  const pg = () => env.resources.pg;
  const runs = async (): Promise<RunRow[]> =>
    pg()('reconciliation_runs').select('scope_key', 'trigger', 'requested_by', 'outcome', 'finished_at').orderBy('id');
  const lease = async (): Promise<{ owner: string; expires_at: Date } | undefined> =>
    pg()('reconciliation_leases').where({ name: SCHEDULER_LEASE }).first('owner', 'expires_at');

  beforeAll(async () => {
    env = await createTestEnv({
      reconcileIntervalMs: INTERVAL_MS,
      reconcileQuietMs: QUIET_MS,
      reconcileGraceMs: 0,
      relayPollIntervalMs: 50,
      projectorFlushIntervalMs: 50,
    });
    logDir = mkdtempSync(join(tmpdir(), 'tidemark-rec-signals-'));
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
    const service = await authHeader(env.settings, 'service');
    for (const detectId of CAMPAIGNS)
      for (let i = 0; i < 3; i++) {
        const input = { detectId, userId: 720001 + i, projectId: 3, schoolId: 77, grade: 5, result: '1.500', unit: 'm' };
        const r = await execute(app.gateway!.url, RecordFitnessResultDocument, { input }, service);
        expect(r.errors).toBeUndefined();
      }
    const ch = app.resources.clickhouse;
    await waitFor(
      async () => {
        const rs = await ch.query({
          query: `SELECT count() AS n FROM ${env.settings.clickhouseDatabase}.fitness_results`,
          format: 'JSONEachRow',
        });
        return Number((await rs.json<{ n: string }>())[0]!.n) === 6;
      },
      { timeoutMs: 60000, what: 'both campaigns projected' },
    );
    // Both campaigns complete (quiet) before any reconciler looks.
    await sleep(QUIET_MS * 2);
  });
  afterAll(async () => {
    for (const p of started) if (!p.exited()) await p.kill();
    if (!process.env.KEEP_DRAIN_LOGS) rmSync(logDir, { recursive: true, force: true });
    await app?.stop();
    await env?.cleanup();
  });

  async function startReconciler(name: string): Promise<RoleProcess> {
    const p = await startRoleProcess({ name, roles: ['reconciler'], env: roleProcessEnv(env.settings), logDir });
    started.push(p);
    return p;
  }

  /** Holds projection_quarantine until release(): a run reaching its quarantine sweep waits inside the reconciler. */
  async function lockQuarantine(): Promise<{ release(): Promise<void> }> {
    const trx: Knex.Transaction = await pg().transaction();
    await trx.raw('LOCK TABLE projection_quarantine IN ACCESS EXCLUSIVE MODE');
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        await trx.commit();
      },
    };
  }

  /** Statements of this suite's database waiting for a lock on projection_quarantine (the run's, and ledger pruning's). */
  async function waitingSweeps(): Promise<number> {
    const r = await pg().raw<{ rows: { n: string }[] }>(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%projection_quarantine%'`,
    );
    return Number(r.rows[0]!.n);
  }

  it('finishes its run, gives the lease back and exits 0; a second reconciler takes the schedule over at once', async () => {
    const lock = await lockQuarantine();
    let a: RoleProcess;
    let stopping: ReturnType<RoleProcess['stop']>;
    let held: RunRow;
    try {
      a = await startReconciler('reconciler-a');
      // The run row is written before the sweep, so once it is there the run cannot end while the lock holds.
      await waitFor(async () => (await runs()).length > 0 && (await waitingSweeps()) > 0, {
        timeoutMs: 90000,
        intervalMs: 200,
        what: 'the first run held at the lock',
      });
      const before = await runs();
      expect(before).toHaveLength(1);
      held = before[0]!;
      expect(held).toMatchObject({ trigger: 'SCHEDULE', requested_by: 'scheduler:reconciler-a', outcome: null, finished_at: null });
      expect(CAMPAIGNS.map((c) => `fitness:detect=${c}`)).toContain(held.scope_key);
      expect((await lease())?.owner).toBe('reconciler-a');

      stopping = a.stop(GRACE_MS);
      await waitFor(() => readFileSync(a.logFile, 'utf8').includes('draining and stopping'), {
        timeoutMs: 30000,
        what: 'the drain to begin',
      });
      // Draining: the pass still runs, so the process has not exited and the lease is still its own.
      await sleep(1000);
      expect(a.exited()).toBe(false);
      expect(await runs()).toEqual([expect.objectContaining({ scope_key: held.scope_key, outcome: null, finished_at: null })]);
      expect((await lease())?.owner).toBe('reconciler-a');
    } finally {
      await lock.release();
    }

    const stopped = await stopping;
    expect(stopped).toMatchObject({ drained: true, forced: false, exitCode: 0, signal: null });
    // The run in flight was finished and recorded; no other run was started after the signal.
    const after = await runs();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ scope_key: held.scope_key, outcome: 'CLEAN' });
    expect(after[0]!.finished_at).not.toBeNull();
    expect(await lease()).toBeUndefined();

    // The second reconciler's first pass (at start) holds the lease and reconciles the campaign left over.
    const b = await startReconciler('reconciler-b');
    const other = CAMPAIGNS.map((c) => `fitness:detect=${c}`).find((k) => k !== held.scope_key)!;
    await waitFor(
      async () =>
        (await runs()).some((r) => r.requested_by === 'scheduler:reconciler-b' && r.scope_key === other && r.finished_at !== null),
      { timeoutMs: 90000, what: 'the second reconciler to reconcile the campaign left over' },
    );
    const taken = (await lease())!;
    expect(taken.owner).toBe('reconciler-b');
    const byB = (await runs()).filter((r) => r.requested_by === 'scheduler:reconciler-b' && r.trigger === 'SCHEDULE');
    expect(byB).toEqual([expect.objectContaining({ scope_key: other, outcome: 'CLEAN' })]);
    expect(await b.stop(GRACE_MS)).toMatchObject({ drained: true, exitCode: 0 });
    expect(await lease()).toBeUndefined();
  }, 300000);
});
