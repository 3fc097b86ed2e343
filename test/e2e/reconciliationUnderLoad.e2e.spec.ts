// Reconciliation on a busy system: about 30 fitness writes per second flow into one campaign through
// the real pipeline (gateway, relay, Kafka, projector) for the whole suite, while another campaign,
// complete and clean, is reconciled. The catch-up check waits for the topic's end offsets as they
// were when the scan started, not for the live end a busy topic never reaches: the clean campaign
// answers CLEAN on its first attempt, and a missing row and a same-version content error injected
// into it in ClickHouse are found under the same load, repaired (replay, rebuild) and verified.
import { clickhouseLayout } from '../../src/infra/clickhouse/layout';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { ident, uint } from '../../src/infra/clickhouse/literal';
import { FITNESS_RESULTS, type FitnessRow } from '../../src/domains/fitness/projection/fitnessResultsTable';
import { rowLine } from '../../src/projections/sql/insertRows';
import { insertJsonEachRow } from '../../src/projections/sql/insertJsonEachRow';
import { deleteRows } from '../../src/reconciliation/target/sql/deleteRows';
import { sleep, waitFor } from '../../src/shared/lifecycle';
import { ReconcileDocument, RecordFitnessResultDocument, RepairDocument, type ReconcileMutation } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';
import { startWriteLoad, type WriteLoad } from '../support/writeLoad';

const fitnessLine = (r: FitnessRow) => rowLine(FITNESS_RESULTS, r);

jest.setTimeout(180000);

const QUIET = 41001;
const BUSY = 41002;

describe('reconciliation under a steady write load elsewhere', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let load: WriteLoad;
  let operator: Record<string, string>;
  const ids: string[] = [];

  const ch = () => app.resources.clickhouse;
  const db = () => ident(env.settings.clickhouseDatabase);
  const rows = async (detectId: number) => {
    const rs = await ch().query({
      query: `SELECT count() AS n FROM ${db()}.fitness_results WHERE detect_id = ${uint(detectId)}`,
      format: 'JSONEachRow',
    });
    return Number((await rs.json<{ n: string }>())[0]!.n);
  };
  const reconcile = async (): Promise<ReconcileMutation['reconcile']> => {
    const r = await execute(url, ReconcileDocument, { scope: { campaign: { detectId: QUIET } }, level: 'CONTENT' }, operator);
    expect(r.errors).toBeUndefined();
    return r.data!.reconcile;
  };

  beforeAll(async () => {
    env = await createTestEnv({
      reconcileGraceMs: 1000,
      reconcileDirectCompareMax: 4,
      reconcileBucketCount: 16,
      repairWaitMs: 30000,
      rebuildWaitMs: 60000,
    });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
    url = app.gateway!.url;
    const client = await authHeader(env.settings, 'service');
    operator = await authHeader(env.settings, 'operator');
    for (let i = 0; i < 12; i++) {
      const r = await execute(
        url,
        RecordFitnessResultDocument,
        { input: { detectId: QUIET, userId: 100 + i, projectId: 3, schoolId: 7, grade: 4, result: `1.${100 + i}`, unit: 'm' } },
        client,
      );
      expect(r.errors).toBeUndefined();
      ids.push(r.data!.recordFitnessResult.result.dataId);
    }
    await waitFor(async () => (await rows(QUIET)) === 12, { timeoutMs: 30000, what: 'the quiet campaign projected' });
    load = startWriteLoad({ url, headers: client, detectId: BUSY, perSecond: 30 });
    // The load is flowing through the whole pipeline before anything is reconciled, and the quiet
    // campaign's last change is older than the grace period.
    await waitFor(async () => load.ok() >= 60 && (await rows(BUSY)) >= 30, { timeoutMs: 30000, what: 'the write load projected' });
  });
  afterAll(async () => {
    const done = await load?.stop();
    await app?.stop();
    await env?.cleanup();
    // The load ran for the whole suite. (On a machine shared with other suites a write may time out
    // waiting for a connection; a handful is not what this suite is about.)
    expect(done!.ok).toBeGreaterThan(100);
    expect(done!.failed).toBeLessThanOrEqual(done!.ok / 100);
  });

  it('answers CLEAN on the first attempt while the topic keeps growing', async () => {
    const writesBefore = load.ok();
    const r = await reconcile();
    expect(r.run).toMatchObject({ outcome: 'CLEAN', attempts: 1, levelReached: 'CONTENT', discrepanciesFound: 0 });
    expect(r.run.bucketsCompared).toBeGreaterThan(0);
    await sleep(200);
    expect(load.ok()).toBeGreaterThan(writesBefore);
  });

  it('finds a MISSING and a CONTENT_MISMATCH under the same load, repairs them and verifies', async () => {
    const [missing, wrong] = [ids[2]!, ids[7]!];
    await deleteRows(
      ch(),
      clickhouseLayout(env.settings),
      env.settings.clickhouseDatabase,
      'fitness_results',
      `data_id = ${uint(missing)}`,
    );
    const rs = await ch().query({
      query: `SELECT * FROM ${db()}.fitness_results WHERE data_id = ${uint(wrong)} LIMIT 1`,
      format: 'JSONEachRow',
    });
    const [good] = await rs.json<Record<string, string | number>>();
    await insertJsonEachRow(ch(), env.settings.clickhouseDatabase, 'fitness_results', [
      fitnessLine({
        dataId: Number(good!.data_id),
        detectId: QUIET,
        userId: Number(good!.user_id),
        projectId: Number(good!.project_id),
        schoolId: Number(good!.school_id) + 1000,
        grade: Number(good!.grade),
        result: String(good!.result),
        unit: String(good!.unit),
        version: Number(good!.version),
        isDeleted: false,
        createdAtMs: Number(good!.created_at_ms),
        sourceCommitMs: Number(good!.source_commit_ms),
        ingestedAtMs: Date.now(),
        eventId: String(good!.event_id),
        shard: Number(good!.shard),
        measuredAtMs: 0,
        changedBy: '',
        kafkaPartition: 0,
        kafkaOffset: '0',
      }),
    ]);

    const writesBefore = load.ok();
    const found = await reconcile();
    expect(found.run).toMatchObject({ outcome: 'DISCREPANCIES', attempts: 1 });
    expect(Object.fromEntries(found.discrepancies.map((d) => [d.aggregateId, d.kind]))).toEqual({
      [missing]: 'MISSING',
      [wrong]: 'CONTENT_MISMATCH',
    });

    const repaired = await execute(url, RepairDocument, { ids: found.discrepancies.map((d) => d.id) }, operator);
    expect(repaired.errors).toBeUndefined();
    const byAggregate = Object.fromEntries(repaired.data!.repair.map((x) => [x.aggregateId ?? 'scope', x]));
    expect(byAggregate[missing]).toMatchObject({ action: 'REPLAY', verification: 'PASSED' });
    const rebuild = repaired.data!.repair.find((x) => x.action === 'REBUILD');
    // On failure, the rebuild's own record (phase, error, validation) is what explains it.
    const record = await app.resources
      .pg('projection_rebuilds')
      .where({ id: rebuild?.rebuildId ?? 0 })
      .first();
    expect({ ...rebuild, record }).toMatchObject({ verification: 'PASSED', record: { status: 'VERIFIED' } });

    const again = await reconcile();
    expect(again.run).toMatchObject({ outcome: 'CLEAN', attempts: 1, discrepanciesFound: 0 });
    expect(load.ok()).toBeGreaterThan(writesBefore);
  });
});
