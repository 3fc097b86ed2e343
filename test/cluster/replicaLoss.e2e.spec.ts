// On the 3-server ClickHouse cluster (npm run test:cluster; skipped elsewhere): one replica of shard 2
// is SIGKILLed while fitness results are being written and projected, and started again. Nothing
// acknowledged is lost (the projector's distributed inserts are synchronous and fail over to the other
// replica), reads stay correct and return each aggregate once, and the restarted replica catches up
// with its peer through replication.
import { repoRoot, stackPath } from '../../src/config/paths';
import { clickhouseClusterStack, clusterNodeClient, type ClickHouseClusterStack } from '../../src/devstack/clickhouseCluster';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { ident } from '../../src/infra/clickhouse/literal';
import { waitFor } from '../../src/shared/lifecycle';
import { FitnessReportByDocument, FitnessResultsPageDocument } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';
import { startWriteLoad } from '../support/writeLoad';

jest.setTimeout(240000);
const onCluster = process.env.CLICKHOUSE_CLUSTER ? describe : describe.skip;
const CAMPAIGN = 52001;
const VICTIM = 's2r2';

onCluster('a ClickHouse replica lost during projection', () => {
  let env: TestEnv;
  let app: Tidemark;
  let stack: ClickHouseClusterStack;
  let url: string;
  let client: Record<string, string>;
  let reporter: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv({ relayPollIntervalMs: 50, projectorFlushIntervalMs: 20, freshnessCacheMs: 0 });
    stack = clickhouseClusterStack({ stackDir: stackPath(env.settings), root: repoRoot, log: () => undefined });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
    url = app.gateway!.url;
    client = await authHeader(env.settings, 'service');
    reporter = await authHeader(env.settings, 'operator'); // every group shown: no small-group suppression
  });
  afterAll(async () => {
    await stack?.start(VICTIM).catch(() => undefined);
    await app?.stop();
    await env?.cleanup();
  });

  /** Every result of the campaign through the gateway's paged read. */
  async function allPages(): Promise<{ ids: string[]; fresh: boolean }> {
    const ids: string[] = [];
    let after: string | null | undefined;
    let fresh = true;
    do {
      const r = await execute(url, FitnessResultsPageDocument, { filter: { detectId: CAMPAIGN }, first: 100, after }, client);
      expect(r.errors).toBeUndefined();
      const page = r.data!.fitnessResults;
      ids.push(...page.nodes.map((n) => n.dataId));
      fresh &&= page.freshness.status === 'FRESH';
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : undefined;
    } while (after);
    return { ids, fresh };
  }

  const localRows = async (node: string) => {
    const n = stack.nodes.find((x) => x.name === node)!;
    const ch = clusterNodeClient(n.httpUrl);
    try {
      const db = ident(env.settings.clickhouseDatabase);
      if (n.replica > 1 || node === VICTIM) await ch.command({ query: `SYSTEM SYNC REPLICA ${db}.fitness_results_local` });
      const rs = await ch.query({ query: `SELECT count() AS n FROM ${db}.fitness_results_local`, format: 'JSONEachRow' });
      return Number((await rs.json<{ n: string }>())[0]!.n);
    } finally {
      await ch.close();
    }
  };

  it('loses nothing, reads each aggregate once, and the replica catches up after its restart', async () => {
    const load = startWriteLoad({ url, headers: client, detectId: CAMPAIGN, perSecond: 20 });
    await waitFor(async () => load.ok() >= 40, { timeoutMs: 60000, what: '40 writes before the kill' });
    await stack.kill(VICTIM);
    const atKill = load.ok();
    await waitFor(async () => load.ok() >= atKill + 100, { timeoutMs: 90000, what: '100 writes while the replica is down' });
    let seen = '';
    const whileDown = await waitFor(
      async () => {
        const x = await allPages();
        seen = `${x.ids.length} read, fresh ${x.fresh}, ${load.ok()} acknowledged, ${load.failed()} failed ${load.failures().join('; ')}`;
        // The load keeps writing, so the page is never FRESH here; it must grow past the kill.
        return x.ids.length >= atKill + 100 && x;
      },
      { timeoutMs: 60000, intervalMs: 500, what: 'reads while the replica is down' },
    ).catch((err: Error) => Promise.reject(new Error(`${err.message} (last: ${seen})`)));
    expect(new Set(whileDown.ids).size).toBe(whileDown.ids.length);

    await stack.start(VICTIM);
    const done = await load.stop();
    expect(done.failed).toBe(0);

    // Every acknowledged write, once, FRESH; the report counts each once.
    const all = await waitFor(
      async () => {
        const x = await allPages();
        return x.fresh && x.ids.length === done.ok && x;
      },
      { timeoutMs: 90000, intervalMs: 500, what: `all ${done.ok} results readable and FRESH` },
    );
    expect(new Set(all.ids).size).toBe(done.ok);
    const report = await execute(url, FitnessReportByDocument, { detectId: CAMPAIGN, projectId: 3, groupBy: 'SCHOOL' }, reporter);
    expect(report.errors).toBeUndefined();
    expect(report.data!.fitnessReport.groups.reduce((sum, g) => sum + g.count, 0)).toBe(done.ok);

    // The restarted replica catches up with its peer (replication is asynchronous: the reads above go
    // to s2r1, so they can be FRESH before s2r2 has fetched every part); the two shards hold every row.
    const s2a = await localRows('s2r1');
    const { n: s2b } = await waitFor(async () => ((await localRows(VICTIM)) === s2a ? { n: s2a } : false), {
      timeoutMs: 60000,
      intervalMs: 500,
      what: `${VICTIM} to hold the ${s2a} rows of its peer`,
    });
    const s1 = await localRows('s1r1');
    expect({ s2b }).toEqual({ s2b: s2a });
    expect(s1).toBeGreaterThan(0);
    expect(s2a).toBeGreaterThan(0);
    expect(s1 + s2a).toBeGreaterThanOrEqual(done.ok);
  });
});
