// The reconciliation ledger's retention on the real PostgreSQL: only finished rows older than the
// retention go (runs, resolved discrepancies, settled repairs, finished rebuilds nothing refers to);
// open discrepancies, pending repairs, unfinished runs, recent rows and a rebuild whose quarantine is
// still swept stay. Batches of one row prove the loop goes on until nothing is left. 0 days: nothing.
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { fixedClock } from '../../shared/clock';
import { pruneLedgerOnce } from '../schedule/ledgerPruning';

jest.setTimeout(60000);

const NOW = new Date('2026-12-01T00:00:00Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 24 * 3600_000);
const common = { domain: 'fitness', scope_key: 'fitness:1', scope: JSON.stringify({ domain: 'fitness', detectId: 1 }) };

describe('pruneLedger', () => {
  let env: TestEnv;
  const id = (rows: unknown[]) => Number((rows[0] as { id: string }).id);

  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => env?.cleanup());

  it('deletes only finished rows older than the retention, in batches', async () => {
    const pg = env.resources.pg;
    const run = (label: string, started: Date, finished: Date | null) =>
      pg('reconciliation_runs')
        .insert({
          ...common,
          level_requested: 'IDS',
          trigger: 'SCHEDULE',
          requested_by: 'test',
          note: label,
          started_at: started,
          finished_at: finished,
        })
        .returning('id');
    await run('old-finished', daysAgo(400), daysAgo(400));
    await run('old-finished-2', daysAgo(380), daysAgo(380));
    await run('recent', daysAgo(10), daysAgo(10));
    await run('old-unfinished', daysAgo(400), null);

    const disc = (agg: string, status: string, resolvedDays: number | null) =>
      pg('reconciliation_discrepancies')
        .insert({
          ...common,
          aggregate_id: agg,
          kind: 'MISSING',
          status,
          first_seen_at: daysAgo(500),
          last_seen_at: daysAgo(400),
          first_run_id: 1,
          last_run_id: 1,
          ...(resolvedDays !== null ? { resolution: 'REPAIRED', resolved_at: daysAgo(resolvedDays) } : {}),
        })
        .returning('id');
    const oldResolved = id(await disc('1', 'RESOLVED', 400));
    await disc('2', 'OPEN', null);
    const pendingRepaired = id(await disc('3', 'RESOLVED', 400));
    await disc('4', 'RESOLVED', 5);

    const rebuild = async (status: string, finishedDays: number | null) =>
      id(
        await pg('projection_rebuilds')
          .insert({
            ...common,
            status,
            phase: 'DONE',
            shadow_table: 's',
            requested_by: 'test',
            reason: 'r',
            started_at: daysAgo(401),
            heartbeat_at: daysAgo(400),
            finished_at: finishedDays === null ? null : daysAgo(finishedDays),
          })
          .returning('id'),
      );
    await rebuild('VERIFIED', 400);
    const quarantined = await rebuild('FAILED', 400);
    await rebuild('RUNNING', null);
    await pg('projection_quarantine').insert({
      domain: 'fitness',
      aggregate_id: '9',
      version: 1,
      digest: 'd',
      rebuild_id: quarantined,
      created_at: daysAgo(400),
    });

    const repair = (discrepancy: number, verification: string) => ({
      ...common,
      discrepancy_id: discrepancy,
      action: 'REPLAY',
      reason: 'r',
      requested_by: 'test',
      outcome: 'SENT',
      verification,
      created_at: daysAgo(400),
      updated_at: daysAgo(400),
    });
    await pg('reconciliation_repairs').insert([repair(oldResolved, 'PASSED'), repair(pendingRepaired, 'PENDING')]);

    expect(await pruneLedgerOnce({ pg, clock: fixedClock(NOW), retentionDays: 0 })).toBeUndefined();
    const report = await pruneLedgerOnce({ pg, clock: fixedClock(NOW), retentionDays: 365, batch: 1 });
    expect(report).toEqual({ reconciliation_repairs: 1, reconciliation_discrepancies: 1, reconciliation_runs: 2, projection_rebuilds: 1 });

    expect((await pg('reconciliation_runs').orderBy('id').select('note')).map((r: { note: string }) => r.note)).toEqual([
      'recent',
      'old-unfinished',
    ]);
    expect(
      (await pg('reconciliation_discrepancies').orderBy('id').select('aggregate_id')).map((r: { aggregate_id: string }) => r.aggregate_id),
    ).toEqual(['2', '3', '4']);
    expect((await pg('reconciliation_repairs').select('verification')).map((r: { verification: string }) => r.verification)).toEqual([
      'PENDING',
    ]);
    expect((await pg('projection_rebuilds').orderBy('id').select('status')).map((r: { status: string }) => r.status)).toEqual([
      'FAILED',
      'RUNNING',
    ]);

    // A second pass finds nothing more.
    expect(await pruneLedgerOnce({ pg, clock: fixedClock(NOW), retentionDays: 365 })).toEqual({
      reconciliation_repairs: 0,
      reconciliation_discrepancies: 0,
      reconciliation_runs: 0,
      projection_rebuilds: 0,
    });
  });
});
