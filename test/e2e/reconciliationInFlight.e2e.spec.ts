// An edit whose publication is held up is in flight, not a defect, and does not hide one (issue 37).
// The relay is stopped, so three corrections stay in the outbox (NEW) while the projection keeps
// their previous versions; with no grace period at all, only the pending publication explains them.
// A run then answers with exactly the row removed from the projection meanwhile, counting the three
// as in flight; once the relay runs again and the repair is verified, the next run is CLEAN and
// excludes nothing.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { clickhouseLayout } from '../../src/infra/clickhouse/layout';
import { ident, uint } from '../../src/infra/clickhouse/literal';
import { deleteRows } from '../../src/reconciliation/target/sql/deleteRows';
import { waitFor } from '../../src/shared/lifecycle';
import {
  CorrectFitnessResultDocument,
  ReconcileDocument,
  RecordFitnessResultDocument,
  RepairDocument,
  type ReconcileMutation,
} from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(180000);

const CAMPAIGN = 44001;

describe('reconciliation with publications held up', () => {
  let env: TestEnv;
  let app: Tidemark;
  let relay: Tidemark | undefined;
  let url: string;
  let client: Record<string, string>;
  let operator: Record<string, string>;
  const ids: string[] = [];

  const ch = () => app.resources.clickhouse;
  const projectedVersions = async (): Promise<Map<string, number>> => {
    const rs = await ch().query({
      query: `SELECT toString(data_id) AS id, max(version) AS v FROM ${ident(env.settings.clickhouseDatabase)}.fitness_results
               WHERE detect_id = ${uint(CAMPAIGN)} GROUP BY data_id`,
      format: 'JSONEachRow',
    });
    return new Map((await rs.json<{ id: string; v: string | number }>()).map((r) => [r.id, Number(r.v)]));
  };
  const reconcile = async (): Promise<ReconcileMutation['reconcile']> => {
    const r = await execute(url, ReconcileDocument, { scope: { campaign: { detectId: CAMPAIGN } }, level: 'CONTENT' }, operator);
    expect(r.errors).toBeUndefined();
    return r.data!.reconcile;
  };

  beforeAll(async () => {
    env = await createTestEnv({ reconcileGraceMs: 0, relayPollIntervalMs: 50, projectorFlushIntervalMs: 50, repairWaitMs: 30000 });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'projector'] }, { migrate: false });
    relay = await startTidemark({ ...env.settings, roles: ['relay'] }, { migrate: false });
    url = app.gateway!.url;
    client = await authHeader(env.settings, 'service');
    operator = await authHeader(env.settings, 'operator');
    for (let i = 0; i < 6; i++) {
      const input = { detectId: CAMPAIGN, userId: 9100 + i, projectId: 3, schoolId: 4, grade: 4, result: '1.250', unit: 'm' };
      const r = await execute(url, RecordFitnessResultDocument, { input }, client);
      expect(r.errors).toBeUndefined();
      ids.push(r.data!.recordFitnessResult.result.dataId);
    }
    await waitFor(async () => (await projectedVersions()).size === 6, { timeoutMs: 30000, what: 'the campaign projected' });
  });
  afterAll(async () => {
    await relay?.stop();
    await app?.stop();
    await env?.cleanup();
  });

  it('counts held-up corrections as in flight and still finds the one real defect', async () => {
    await relay!.stop();
    relay = undefined;
    for (const dataId of ids.slice(0, 3)) {
      const r = await execute(url, CorrectFitnessResultDocument, { dataId, expectedVersion: 1, result: '1.300', unit: 'm' }, client);
      expect(r.errors).toBeUndefined();
    }
    const missing = ids[4]!;
    await deleteRows(
      ch(),
      clickhouseLayout(env.settings),
      env.settings.clickhouseDatabase,
      'fitness_results',
      `data_id = ${uint(missing)}`,
    );

    const found = await reconcile();
    expect(found.discrepancies.map((d) => [d.aggregateId, d.kind])).toEqual([[missing, 'MISSING']]);
    expect(found.run).toMatchObject({ outcome: 'DISCREPANCIES', excludedInFlight: 3, excludedChangedAfterSnapshot: 0 });

    relay = await startTidemark({ ...env.settings, roles: ['relay'] }, { migrate: false });
    await waitFor(async () => [...(await projectedVersions()).values()].filter((v) => v === 2).length === 3, {
      timeoutMs: 30000,
      what: 'the held-up corrections projected',
    });
    const repaired = await execute(url, RepairDocument, { ids: found.discrepancies.map((d) => d.id) }, operator);
    expect(repaired.data!.repair).toEqual([expect.objectContaining({ aggregateId: missing, action: 'REPLAY', verification: 'PASSED' })]);

    const again = await reconcile();
    expect(again.discrepancies).toEqual([]);
    expect(again.run).toMatchObject({ outcome: 'CLEAN', excludedInFlight: 0, excludedChangedAfterSnapshot: 0 });
  });
});
