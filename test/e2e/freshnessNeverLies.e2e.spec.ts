// "FRESH means it" (issue 28), as a property over the real stack: hundreds of reads of results
// corrected and read back at once, through lookups, lists and reports, with the gateway, the relay and
// the projector as separate Tidemark instances, the default FRESHNESS_CACHE_MS, and ~30 writes/s of
// background load on the same topic. No FRESH answer may show a version older than the one committed
// before it was asked. Runs on the 18.16 server (npm test), embedded 26.7 (npm run test:engines) and
// the 3-server cluster (npm run test:cluster: three servers and ZooKeeper on the same two cores, so a
// lighter load and a shorter budget).
import { startTidemark, type Tidemark } from '../../src/app/start';
import { describeCounts, runFreshnessProperty } from '../support/freshnessNeverLies';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';
import { startWriteLoad, type WriteLoad } from '../support/writeLoad';

jest.setTimeout(560000);
const embedded = process.env.CLICKHOUSE_ENGINE === 'embedded';
const cluster = !embedded && Boolean(process.env.CLICKHOUSE_CLUSTER);
const light = embedded || cluster;
// The embedded engine runs ClickHouse and every role in this one process (libchdb: one process per
// data directory); with 30 writes/s and six readers its reads took seconds on this 2-core machine:
// it gets a lighter load and fewer readers; the server run carries the full load.
const LOAD_PER_S = light ? 8 : 30;
const BUDGET_MS = light ? 45000 : 60000;
/** Least rounds, and least FRESH answers of each shape, for the run to prove anything. */
const ENOUGH = light ? { rounds: 10, fresh: 10 } : { rounds: 20, fresh: 15 };

describe('a FRESH marker never vouches for an old version', () => {
  let env: TestEnv;
  const apps: Tidemark[] = [];
  let load: WriteLoad | undefined;

  beforeAll(async () => {
    // Default freshness cache and projector flush interval: both are part of what is proven.
    env = await createTestEnv({ relayPollIntervalMs: 50 });
    for (const roles of [['gateway'], ['relay'], ['projector']] as const)
      apps.push(await startTidemark({ ...env.settings, roles: [...roles] }, { migrate: false }));
  });
  afterAll(async () => {
    await load?.stop();
    for (const a of apps.reverse()) await a.stop();
    await env?.cleanup();
  });

  it('corrections read back at once: lookups, lists and reports are never FRESH and old', async () => {
    const url = apps[0]!.gateway!.url;
    const service = await authHeader(env.settings, 'service');
    load = startWriteLoad({ url, headers: service, detectId: 99001, perSecond: LOAD_PER_S });
    const counts = await runFreshnessProperty({
      url,
      writer: service,
      reader: service,
      reporter: await authHeader(env.settings, 'operator'),
      workers: light ? 3 : 6,
      budgetMs: BUDGET_MS,
      enough: ENOUGH,
      maxBudgetMs: 480000,
      campaignBase: 81000,
    });
    const loaded = await load.stop();
    load = undefined;
    process.stderr.write(
      `${describeCounts(embedded ? 'embedded' : cluster ? 'cluster' : 'server', counts)}; background writes ${loaded.ok} (${LOAD_PER_S}/s)\n`,
    );
    expect(counts.examples).toEqual([]);
    expect(counts.lies).toEqual({ lookup: 0, list: 0, report: 0 });
    // Not vacuous: the property was tested on many FRESH answers of every shape, under load.
    expect(counts.rounds).toBeGreaterThanOrEqual(ENOUGH.rounds);
    expect(counts.writeFailures.length).toBeLessThanOrEqual(counts.rounds / 10);
    expect(Math.min(counts.fresh.lookup, counts.fresh.list, counts.fresh.report)).toBeGreaterThanOrEqual(ENOUGH.fresh);
    expect(loaded.ok).toBeGreaterThan((LOAD_PER_S * BUDGET_MS) / 2000);
  });
});
