// On the 3-server ClickHouse cluster (npm run test:cluster; skipped elsewhere): a whole shard goes away
// while fitness results are written, projected and read. Shard 2's two servers are stopped gracefully
// (SIGTERM) one after the other, so for a while the shard has no server at all, while the entry server
// (s1r1, shard 1) still answers; then both are started again. What a user expects, and this proves:
//   - no write fails: writes go to the shards and the outbox, never to ClickHouse;
//   - a read while the shard is gone answers the typed, retriable READ_MODEL_UNAVAILABLE: never a page
//     holding only shard 1's rows as if it were the whole campaign, never an untyped INTERNAL;
//   - after the shard returns everything converges: every acknowledged write readable once and FRESH,
//     and a CONTENT reconciliation of the campaign CLEAN.
// test/cluster/replicaLoss.e2e.spec.ts SIGKILLs one replica while its peer serves the shard; the entry
// server's own outage is a single server's (test/faults stops ClickHouse under traffic).
import { repoRoot, stackPath } from '../../src/config/paths';
import { clickhouseClusterStack, type ClickHouseClusterStack } from '../../src/devstack/clickhouseCluster';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { waitFor } from '../../src/shared/lifecycle';
import { FitnessResultsPageDocument, ReconcileDocument } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';
import { startWriteLoad } from '../support/writeLoad';

jest.setTimeout(300000);
const onCluster = process.env.CLICKHOUSE_CLUSTER ? describe : describe.skip;
const CAMPAIGN = 52002;
const SHARD_2 = ['s2r1', 's2r2'] as const;

onCluster('a ClickHouse shard with no server left, stopped and started gracefully', () => {
  let env: TestEnv;
  let app: Tidemark;
  let stack: ClickHouseClusterStack;
  let url: string;
  let client: Record<string, string>;
  let operator: Record<string, string>;
  let load: ReturnType<typeof startWriteLoad> | undefined;

  beforeAll(async () => {
    env = await createTestEnv({ relayPollIntervalMs: 50, projectorFlushIntervalMs: 20, freshnessCacheMs: 0, reconcileCatchUpWaitMs: 1500 });
    stack = clickhouseClusterStack({ stackDir: stackPath(env.settings), root: repoRoot, log: () => undefined });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
    url = app.gateway!.url;
    client = await authHeader(env.settings, 'service');
    operator = await authHeader(env.settings, 'operator');
  });
  afterAll(async () => {
    await load?.stop();
    for (const node of SHARD_2) await stack?.start(node).catch(() => undefined);
    await app?.stop();
    await env?.cleanup();
  });

  type Page = { ids: string[]; fresh: boolean } | { error: { code: unknown; retriable: unknown } };

  /** Every result of the campaign through the gateway's paged read, or the first page's error. */
  async function allPages(): Promise<Page> {
    const ids: string[] = [];
    let after: string | null | undefined;
    let fresh = true;
    do {
      const r = await execute(url, FitnessResultsPageDocument, { filter: { detectId: CAMPAIGN }, first: 100, after }, client);
      if (r.errors) return { error: { code: r.errors[0]?.extensions?.code, retriable: r.errors[0]?.extensions?.retriable } };
      const page = r.data!.fitnessResults;
      ids.push(...page.nodes.map((n) => n.dataId));
      fresh &&= page.freshness.status === 'FRESH';
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : undefined;
    } while (after);
    return { ids, fresh };
  }

  it('acknowledges every write, answers reads READ_MODEL_UNAVAILABLE while the shard is gone, and converges after', async () => {
    const writes = (load = startWriteLoad({ url, headers: client, detectId: CAMPAIGN, perSecond: 20, userBase: 600_000 }));
    await waitFor(async () => writes.ok() >= 40, { timeoutMs: 60000, what: '40 writes before the stop' });
    for (const node of SHARD_2) await stack.stop(node);
    const atStop = writes.ok();
    await waitFor(async () => writes.ok() >= atStop + 60, { timeoutMs: 90000, what: '60 writes while shard 2 is gone' });
    // Reads one after the other while neither server of shard 2 runs (both stopped above, none started).
    const whileGone: Page[] = [];
    for (let i = 0; i < 5; i++) whileGone.push(await allPages());
    expect(whileGone).toEqual(Array(5).fill({ error: { code: 'READ_MODEL_UNAVAILABLE', retriable: true } }));

    for (const node of SHARD_2) await stack.start(node);
    const done = await writes.stop();
    expect({ failed: done.failed, failures: writes.failures() }).toEqual({ failed: 0, failures: [] });

    let seen = '';
    const all = await waitFor(
      async () => {
        const x = await allPages();
        seen = JSON.stringify('error' in x ? x : { read: x.ids.length, fresh: x.fresh, acknowledged: done.ok });
        return 'ids' in x && x.fresh && x.ids.length >= done.ok && x;
      },
      { timeoutMs: 120000, intervalMs: 500, what: `all ${done.ok} results readable and FRESH` },
    ).catch((err: Error) => Promise.reject(new Error(`${err.message} (last: ${seen})`)));
    expect({ read: all.ids.length, distinct: new Set(all.ids).size }).toEqual({ read: done.ok, distinct: done.ok });

    const r = await execute(url, ReconcileDocument, { scope: { campaign: { detectId: CAMPAIGN } }, level: 'CONTENT' }, operator);
    expect(r.errors).toBeUndefined();
    expect({ outcome: r.data!.reconcile.run.outcome, discrepancies: r.data!.reconcile.discrepancies }).toEqual({
      outcome: 'CLEAN',
      discrepancies: [],
    });
  });
});
