// Reconciliation of a campaign while it is being edited (issue 37): 60 results corrected at 20 writes
// per second through the real pipeline (gateway, shards, relay, Kafka, projector) for the whole suite.
// Each run judges every aggregate at the version one source snapshot holds, so it gives a verdict
// however busy the campaign: 10 runs in a row answer CLEAN, each counting what it excluded (changed
// after its snapshot, in flight). A row removed from the projection of a result nobody edits is found
// alone among the edits, replayed, verified, and the next run is CLEAN again.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { clickhouseLayout } from '../../src/infra/clickhouse/layout';
import { ident, uint } from '../../src/infra/clickhouse/literal';
import { deleteRows } from '../../src/reconciliation/target/sql/deleteRows';
import { waitFor } from '../../src/shared/lifecycle';
import { ReconcileDocument, RecordFitnessResultDocument, RepairDocument, type ReconcileMutation } from '../generated/graphql';
import { startCorrectionLoad, type CorrectionLoad } from '../support/correctionLoad';
import { execute } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(240000);

const CAMPAIGN = 43001;
type Run = ReconcileMutation['reconcile']['run'];

describe('reconciliation of a campaign while it is being corrected', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let load: CorrectionLoad;
  let operator: Record<string, string>;
  const edited: { dataId: string; version: number }[] = [];
  const untouched: string[] = [];
  const runs: (Pick<Run, 'outcome' | 'attempts' | 'excludedChangedAfterSnapshot' | 'excludedInFlight' | 'discrepanciesFound'> & {
    ms: number;
  })[] = [];

  const ch = () => app.resources.clickhouse;
  const projected = async () => {
    const rs = await ch().query({
      query: `SELECT uniqExact(data_id) AS n FROM ${ident(env.settings.clickhouseDatabase)}.fitness_results WHERE detect_id = ${uint(CAMPAIGN)}`,
      format: 'JSONEachRow',
    });
    return Number((await rs.json<{ n: string }>())[0]!.n);
  };
  const reconcile = async (): Promise<ReconcileMutation['reconcile']> => {
    const t0 = Date.now();
    const r = await execute(url, ReconcileDocument, { scope: { campaign: { detectId: CAMPAIGN } }, level: 'CONTENT' }, operator);
    expect(r.errors).toBeUndefined();
    const run = r.data!.reconcile.run;
    runs.push({
      outcome: run.outcome,
      attempts: run.attempts,
      excludedChangedAfterSnapshot: run.excludedChangedAfterSnapshot,
      excludedInFlight: run.excludedInFlight,
      discrepanciesFound: run.discrepanciesFound,
      ms: Date.now() - t0,
    });
    return r.data!.reconcile;
  };

  beforeAll(async () => {
    // Bucketed comparison (64 results > 16): the edits make buckets differ, which are then judged
    // aggregate by aggregate at the snapshot.
    env = await createTestEnv({ reconcileGraceMs: 5000, reconcileDirectCompareMax: 16, reconcileBucketCount: 16, repairWaitMs: 30000 });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
    url = app.gateway!.url;
    const client = await authHeader(env.settings, 'service');
    operator = await authHeader(env.settings, 'operator');
    for (let i = 0; i < 64; i++) {
      const input = { detectId: CAMPAIGN, userId: 7000 + i, projectId: 3, schoolId: 1 + (i % 5), grade: 4, result: '1.500', unit: 'm' };
      const r = await execute(url, RecordFitnessResultDocument, { input }, client);
      expect(r.errors).toBeUndefined();
      const { dataId, version } = r.data!.recordFitnessResult.result;
      if (i < 60) edited.push({ dataId, version });
      else untouched.push(dataId);
    }
    await waitFor(async () => (await projected()) === 64, { timeoutMs: 30000, what: 'the campaign projected' });
    load = startCorrectionLoad({ url, headers: client, results: edited, perSecond: 20 });
    // Corrections are flowing through the whole pipeline before the first run.
    await waitFor(async () => load.ok() >= 60, { timeoutMs: 30000, what: 'corrections flowing' });
  });
  afterAll(async () => {
    const done = await load?.stop();
    await app?.stop();
    await env?.cleanup();
    writeFileSync(join(tmpdir(), 'tidemark-reconciliation-live-scope.json'), JSON.stringify({ load: done, runs }, null, 1));
    expect(done!.failed).toBeLessThanOrEqual(done!.ok / 100);
  });

  it('answers CLEAN on each of 10 runs while 20 corrections per second go in, reporting what each excluded', async () => {
    const before = load.ok();
    for (let i = 0; i < 10; i++) {
      const { run, discrepancies } = await reconcile();
      expect({ outcome: run.outcome, discrepancies }).toEqual({ outcome: 'CLEAN', discrepancies: [] });
      expect(run.note).toMatch(/excluded: \d+ changed after the snapshot, \d+ in flight/);
      expect(run.excludedChangedAfterSnapshot + run.excludedInFlight).toBeLessThanOrEqual(60);
    }
    // The campaign really was being edited during the runs, and some runs had to leave edits out.
    expect(load.ok() - before).toBeGreaterThan(20);
    expect(runs.reduce((n, r) => n + r.excludedChangedAfterSnapshot + r.excludedInFlight, 0)).toBeGreaterThan(0);
    // A run that left aggregates out judged only part of the campaign: it verifies nothing, and the
    // schedule will take the campaign again (only runs that excluded nothing count).
    const pg = app.resources.pg;
    const partial = await pg('reconciliation_runs')
      .where({ scope_key: `fitness:detect=${CAMPAIGN}`, outcome: 'CLEAN' })
      .andWhere((q) => q.where('excluded_changed', '>', 0).orWhere('excluded_in_flight', '>', 0))
      .pluck('id');
    expect(partial.length).toBeGreaterThan(0);
    const registry = await pg('reconciliation_scopes')
      .where({ scope_key: `fitness:detect=${CAMPAIGN}` })
      .first('last_verified_run_id');
    expect(partial.map(String)).not.toContain(String(registry?.last_verified_run_id ?? 'none'));
  });

  it('finds exactly a row missing from the projection among the edits, repairs it, and is CLEAN again', async () => {
    const missing = untouched[1]!;
    await deleteRows(
      ch(),
      clickhouseLayout(env.settings),
      env.settings.clickhouseDatabase,
      'fitness_results',
      `data_id = ${uint(missing)}`,
    );
    const found = await reconcile();
    expect(found.run.outcome).toBe('DISCREPANCIES');
    expect(found.discrepancies.map((d) => [d.aggregateId, d.kind])).toEqual([[missing, 'MISSING']]);

    const repaired = await execute(url, RepairDocument, { ids: found.discrepancies.map((d) => d.id) }, operator);
    expect(repaired.errors).toBeUndefined();
    expect(repaired.data!.repair).toEqual([expect.objectContaining({ aggregateId: missing, action: 'REPLAY', verification: 'PASSED' })]);

    const again = await reconcile();
    expect({ outcome: again.run.outcome, discrepancies: again.discrepancies }).toEqual({ outcome: 'CLEAN', discrepancies: [] });
  });
});
