// A shard's MariaDB server SIGKILLed for a minute under steady writes to both shards (issue 30). Shard 0
// lives on the machine's server, shard 1 on a server of this suite's own (test/support/privateMariadb.ts:
// the stack manager's code, a free port, a folder under .tidemark/), so killing it touches no other
// suite. The whole system runs in this process (gateway, relay, projector, reconciler). While the server
// is dead, shard 0's students keep writing, shard 1's get a typed, retriable STORE_UNAVAILABLE and the
// gateway stays ready (degraded, naming the shard). The server is then started again on the same data
// folder and port: shard 1 writes again, every acknowledged write of both shards is read FRESH (the
// relays resumed by themselves) and reconciliation, scheduled and requested, finds the campaign clean
// with no repair. Latencies are measured and reported (docs/faults.md), never asserted.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { formatShardUrl, parseShardUrl, type ShardUrl } from '../../src/config/shardUrls';
import { createLogger } from '../../src/shared/logger';
import { sleep, waitFor } from '../../src/shared/lifecycle';
import { readCampaign } from '../support/campaignResults';
import { executeRaw } from '../support/graphqlClient';
import { testLogger } from '../support/logCapture';
import { freeMariadbPort, startPrivateMariadb, type PrivateMariadb } from '../support/privateMariadb';
import { percentile, ShardWriter, studentsOn } from '../support/shardWriter';
import { createTestEnv, testSettings, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

/** How long the server stays dead (SHARD_KILL_OUTAGE_MS; the issue asks for 60 s). */
const OUTAGE_MS = Number(process.env.SHARD_KILL_OUTAGE_MS ?? 60000);
const BASELINE_MS = 10000;
/** Writes before the baseline, not counted in it: the first ones after start-up open pools and warm the code. */
const WARMUP_MS = 3000;
/** Each shard's stream: a write every 100 ms, 10 a second per shard. */
const WRITE_EVERY_MS = 100;
const DETECT_ID = 30701;
const SCOPE_KEY = `fitness:detect=${DETECT_ID}`;

const RUNS = `query($f: ReconciliationRunFilterInput) { reconciliationRuns(filter: $f, first: 100) {
  trigger outcome discrepanciesFound startedAt } }`;
const RECONCILE = `mutation($scope: ReconciliationScopeInput!) { reconcile(scope: $scope, level: CONTENT) {
  run { outcome discrepanciesFound } discrepancies { kind } } }`;
const UNRESOLVED = `query($f: DiscrepancyFilterInput) { discrepancies(filter: $f, first: 50) { kind status } }`;
const REPAIRS = `query { repairs(first: 50) { action } }`;

type Ready = { status: number; body: { status?: string; degraded?: string[]; shardsDown?: number[] } };
interface Run {
  trigger: string;
  outcome: string | null;
  discrepanciesFound: number;
  startedAt: string;
}

jest.setTimeout(OUTAGE_MS + 300000);

describe('a shard whose MariaDB server is SIGKILLed under steady writes', () => {
  let env: TestEnv;
  let app: Tidemark;
  let mariadb: PrivateMariadb | undefined;
  let url: string;
  let service: Record<string, string>;
  let operator: Record<string, string>;
  let writers: [ShardWriter, ShardWriter];
  const ready: Ready[] = [];
  const at = { restart: 0, serverUp: 0, back: 0, stopped: 0 };

  beforeAll(async () => {
    // The shard databases testSettings would pick; shard 1's URL then names the private server.
    const probe = testSettings();
    const databases = probe.fitnessShardDatabases;
    const urls = probe.fitnessShards.length
      ? probe.fitnessShards
      : databases.map((database) => formatShardUrl({ host: probe.mysqlHost, port: probe.mysqlPort, database }));
    const port = await freeMariadbPort();
    const fitnessShards = [urls[0]!, formatShardUrl({ ...(parseShardUrl(urls[1]!) as ShardUrl), host: '127.0.0.1', port })];
    const stackLog = testLogger().child({ component: 'private-mariadb' });
    mariadb = await startPrivateMariadb({ ...probe, fitnessShards }, port, (line) => stackLog.info(line));
    env = await createTestEnv({
      fitnessShardDatabases: databases,
      fitnessShards,
      freshnessCacheMs: 0,
      projectorFlushIntervalMs: 50,
      // The reconciler role's schedule, short enough to see it pick the campaign up after the outage.
      reconcileIntervalMs: 2000,
      reconcileQuietMs: 3000,
      reconcileGraceMs: 2000,
    });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector', 'reconciler'] }, { migrate: false });
    url = app.gateway!.url;
    service = await authHeader(env.settings, 'service');
    operator = await authHeader(env.settings, 'operator');
    writers = [0, 1].map(
      (shard) =>
        new ShardWriter({
          url,
          headers: service,
          detectId: DETECT_ID,
          students: studentsOn(shard, 2, 40, 307_000),
          everyMs: WRITE_EVERY_MS,
        }),
    ) as [ShardWriter, ShardWriter];
  }, 240000);

  afterAll(async () => {
    for (const w of writers ?? []) await w.stop();
    await app?.stop();
    try {
      // Its shard database is dropped like every suite's, so the server must be up for that.
      if (mariadb && !mariadb.pid()) await mariadb.start().catch(() => undefined);
      await env?.cleanup();
    } finally {
      await mariadb?.destroy();
    }
  }, 180000);

  const readyz = async (): Promise<Ready> => {
    const res = await fetch(`${url.replace(/\/graphql$/, '')}/readyz`, { signal: AbortSignal.timeout(10000) });
    return { status: res.status, body: (await res.json()) as Ready['body'] };
  };

  it("keeps the other shard writing and refuses the lost shard's writes, typed and retriable, until its server is back", async () => {
    const [w0, w1] = writers;
    w0.phase = w1.phase = 'warmup';
    w0.start();
    w1.start();
    await sleep(WARMUP_MS);
    w0.phase = w1.phase = 'baseline';
    await sleep(BASELINE_MS);
    // No write of shard 1 in flight at the kill: each is sent to a live server or to a dead one.
    await w1.hold();
    const killedAt = Date.now();
    await mariadb!.kill();
    w0.phase = w1.phase = 'outage';
    w1.resume();
    while (Date.now() < killedAt + OUTAGE_MS) {
      ready.push(await readyz());
      await sleep(Math.min(2000, Math.max(0, killedAt + OUTAGE_MS - Date.now())));
    }
    w0.phase = w1.phase = 'recovery';
    at.restart = Date.now();
    await mariadb!.start();
    at.serverUp = Date.now();
    const back = await waitFor(() => w1.in('recovery').find((w) => w.dataId), {
      timeoutMs: 120000,
      intervalMs: 100,
      what: 'a shard 1 write',
    });
    at.back = back.at + back.ms;
    await sleep(3000); // a few more writes to both shards once it is back
    await Promise.all(writers.map((w) => w.stop()));
    at.stopped = Date.now();

    // Shard 0: every write acknowledged, before, during and after; each on shard 0 (dataId % 100).
    expect(w0.writes.filter((w) => !w.dataId).map((w) => w.code)).toEqual([]);
    expect(w0.in('outage').length).toBeGreaterThan(0);
    expect(w0.acknowledged().filter((w) => Number(w.dataId) % 100 !== 0)).toEqual([]);
    // Shard 1: written before, refused during (STORE_UNAVAILABLE, retriable, no server named), written after.
    expect([...w1.in('warmup'), ...w1.in('baseline')].filter((w) => !w.dataId)).toEqual([]);
    const refused = w1.in('outage');
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map((w) => `${w.code} retriable=${String(w.retriable)}`))).toEqual(
      new Set(['STORE_UNAVAILABLE retriable=true']),
    );
    expect(refused.filter((w) => /127\.0\.0\.1|ECONNREFUSED|:\d{4,5}\b/.test(w.message ?? ''))).toEqual([]);
    const restarting = w1.in('recovery').filter((w) => !w.dataId);
    expect(restarting.filter((w) => w.code !== 'STORE_UNAVAILABLE' || w.retriable !== true)).toEqual([]);
    expect(w1.acknowledged().filter((w) => Number(w.dataId) % 100 !== 1)).toEqual([]);
    // The gateway stayed ready all along, degraded, naming MySQL and the shard.
    expect(ready.length).toBeGreaterThan(0);
    for (const r of ready) {
      expect(r).toMatchObject({ status: 200, body: { status: 'degraded', shardsDown: [1] } });
      expect(r.body.degraded).toContain('mysql');
    }
    await waitFor(async () => (await readyz()).body.shardsDown?.length === 0, { timeoutMs: 30000, what: 'shard 1 to be up in /readyz' });
  });

  it('loses nothing acknowledged: every write of both shards is read FRESH once the relays resumed by themselves', async () => {
    const acked = writers.flatMap((w) => w.acknowledged().map((a) => a.dataId!));
    let seen = { ids: new Set<string>(), statuses: ['UNREAD'] };
    const caughtUp = await waitFor(
      async () => {
        seen = await readCampaign(url, DETECT_ID, service);
        return seen.statuses.every((s) => s === 'FRESH') && acked.every((id) => seen.ids.has(id)) && Date.now();
      },
      { timeoutMs: 240000, intervalMs: 1000, what: 'every acknowledged write read FRESH' },
    ).catch(() => undefined);
    const lost = acked.filter((id) => !seen.ids.has(id)).length;
    const [w0, w1] = writers;
    const p99 = (phase: string) =>
      percentile(
        w0.in(phase).map((w) => w.ms),
        99,
      );
    const [base, during] = [p99('baseline'), p99('outage')];
    const s = (ms: number) => (ms / 1000).toFixed(1);
    const figures = {
      shard0P99BaselineMs: Math.round(base),
      shard0P99OutageMs: Math.round(during),
      ratio: Number((during / base).toFixed(2)),
      shard0WritesDuringOutage: w0.in('outage').length,
      shard1TypedErrors: w1.in('outage').length,
      acknowledged: acked.length,
      lost,
      serverUpAfterS: Number(s(at.serverUp - at.restart)),
      backAfterS: Number(s(at.back - at.restart)),
      caughtUpAfterS: caughtUp ? Number(s(caughtUp - at.restart)) : null,
    };
    createLogger('info', { suite: 'shardServerKilled' }).info(
      figures,
      `[shard server killed] outage ${s(OUTAGE_MS)} s: shard0 p99 baseline ${figures.shard0P99BaselineMs} ms, ` +
        `during ${figures.shard0P99OutageMs} ms (ratio ${figures.ratio}), shard1 typed errors ${figures.shard1TypedErrors}, ` +
        `acknowledged ${acked.length}, lost ${lost}, back after ${figures.backAfterS} s ` +
        `(server up ${figures.serverUpAfterS} s), everything read FRESH after ${figures.caughtUpAfterS ?? 'never'} s`,
    );
    expect(lost).toBe(0);
    expect(new Set(seen.statuses)).toEqual(new Set(['FRESH']));
  });

  it('reconciles the campaign clean by itself after the outage, and again on request, with no repair', async () => {
    const runsOf = async (triggers?: string[]): Promise<Run[]> => {
      const r = await executeRaw(url, RUNS, { f: { scopeKey: SCOPE_KEY, ...(triggers ? { triggers } : {}) } }, operator);
      expect(r.errors).toBeUndefined();
      return r.data!.reconciliationRuns as Run[];
    };
    // The reconciler role's schedule: the campaign is quiet, so its next pass reconciles it (no one asked).
    const scheduled = await waitFor(
      async () => (await runsOf(['SCHEDULE'])).find((r) => r.outcome === 'CLEAN' && Date.parse(r.startedAt) >= at.stopped),
      { timeoutMs: 120000, intervalMs: 1000, what: 'a scheduled CLEAN reconciliation of the campaign' },
    );
    expect(scheduled.discrepanciesFound).toBe(0);
    const requested = await executeRaw(url, RECONCILE, { scope: { campaign: { detectId: DETECT_ID } } }, operator);
    expect(requested.errors).toBeUndefined();
    expect(requested.data!.reconcile).toEqual({ run: { outcome: 'CLEAN', discrepanciesFound: 0 }, discrepancies: [] });
    // Never a discrepancy, nothing left open and nothing repaired: no operator action was needed.
    expect((await runsOf()).filter((r) => r.outcome === 'DISCREPANCIES' || r.discrepanciesFound > 0)).toEqual([]);
    const unresolved = await executeRaw(url, UNRESOLVED, { f: { scopeKey: SCOPE_KEY } }, operator);
    expect(unresolved.data!.discrepancies).toEqual([]);
    const repairs = await executeRaw(url, REPAIRS, undefined, operator);
    expect(repairs.data!.repairs).toEqual([]);
  });
});
