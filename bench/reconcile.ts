// How long a reconciliation of one campaign of 100,000 fitness results takes on this machine, at each
// level, on the real engines: the source rows are bulk-inserted into the two MySQL shards (live rows
// and deletion log: 10% corrected to version 2, 5% deleted) and their projection rows into ClickHouse
// through the projector's own mapping. Then:
//   COUNTS, IDS and CONTENT on a clean scope (bucketed: RECONCILE_BUCKET_COUNT buckets);
//   CONTENT with 3 injected discrepancies (drills into the mismatching buckets only);
//   CONTENT record by record (no buckets) for comparison;
//   optionally (--rebuild) a controlled rebuild of the whole scope.
// With --under-load[=rate] the full pipeline runs (gateway, relay, projector) and the same
// reconciliations are timed a second time while `rate` (default 30) fitness writes per second flow
// through GraphQL into another campaign, beside the quiet figures; each loaded run also reports its
// attempts (1 = CLEAN or DISCREPANCIES on the first attempt, the catch-up snapshot at work), and
// how long the catch-up check itself waits under that load (snapshot, then until the projector
// reached it; 10 samples).
// Each timing is the wall time of service.reconcile() (ledger writes included); 3 runs, median.
// Run: npx tsx bench/reconcile.ts [count=100000] [--rebuild] [--under-load[=30]]
import { SINGLE_SERVER } from '../src/infra/clickhouse/layout';
import { performance } from 'node:perf_hooks';
import { startTidemark, type Tidemark } from '../src/app/start';
import { createRegistry } from '../src/metrics/registry';
import { ident, uint } from '../src/infra/clickhouse/literal';
import { campaignScope } from '../src/domains/fitness/reconciliation/campaignScope';
import type { ReconcileLevel } from '../src/reconciliation/model';
import type { ReconciliationService } from '../src/reconciliation/service';
import { reconciliationFrom } from '../src/app/wiring/reconciliation';
import { deleteRows } from '../src/reconciliation/target/sql/deleteRows';
import { unlimited } from '../src/reconciliation/repair/rateLimiter';
import { sleep, waitFor } from '../src/shared/lifecycle';
import { silentLogger } from '../src/shared/logger';
import { insertJsonEachRow } from '../src/projections/sql/insertJsonEachRow';
import { fitnessDecoder } from '../src/domains/fitness/projection/fitnessDecoder';
import { FITNESS_RESULTS } from '../src/domains/fitness/projection/fitnessResultsTable';
import { rowLine } from '../src/projections/sql/insertRows';
import { toEnvelope } from '../src/publication/event';
import { eventOfState } from '../src/domains/fitness/reconciliation/fitnessSource';
import { fitnessStates, seedProjection, seedSource } from '../test/support/reconciliationSeed';
import { createTestEnv, type TestEnv } from '../test/support/testEnv';
import { fromFreshnessSources } from '../src/reconciliation/pipeline/pipelineProbe';
import { freshnessInputsFrom } from '../src/app/wiring/freshness';
import { systemClock } from '../src/shared/clock';
import { authHeader } from '../test/support/tokens';
import { startWriteLoad, type WriteLoad } from '../test/support/writeLoad';
import { loadAverage } from './lib/machine';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** How long the catch-up check waits under load: a snapshot of the fitness topic, then until the projector reaches it. */
async function catchUpWaits(env: TestEnv, samples: number): Promise<{ median: number; max: number }> {
  const probe = fromFreshnessSources({ ...freshnessInputsFrom(env.resources, { onError: () => undefined }), clock: systemClock });
  const ms: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const t0 = performance.now();
      const behind = await probe.behind(await probe.snapshot('fitness'), 30000);
      if (behind > 0) throw new Error('the projector did not reach the snapshot within 30 s');
      ms.push(performance.now() - t0);
      await sleep(300);
    }
  } finally {
    await probe.close?.();
  }
  return { median: Math.round(median(ms)), max: Math.round(Math.max(...ms)) };
}

interface Timing {
  ms: number;
  outcome: string;
  attempts: number[];
  discrepancies: number;
  bucketsMismatched: number;
}

async function main(): Promise<void> {
  const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100000);
  const withRebuild = process.argv.includes('--rebuild');
  const loadArg = process.argv.find((a) => a.startsWith('--under-load'));
  const rate = loadArg ? Number(loadArg.split('=')[1] ?? 30) : 0;
  const env = await createTestEnv({ reconcileCatchUpWaitMs: rate ? 10000 : 1000 });
  const service = reconciliationFrom(env.resources, { registry: createRegistry(false), logger: silentLogger, rebuildLimiter: unlimited });
  const direct = reconciliationFrom(
    { ...env.resources, settings: { ...env.settings, reconcileDirectCompareMax: 10_000_000 } },
    { registry: createRegistry(false), logger: silentLogger },
  );
  let app: Tidemark | undefined;
  let load: WriteLoad | undefined;
  try {
    const scope = campaignScope(50001);
    // Sequences far above those the write path allocates (the load's results must not collide with them).
    const seed = {
      detectId: 50001,
      count,
      firstSequence: 1_000_000,
      updatedAt: new Date(Date.now() - 3600_000),
      correctEvery: 10,
      deleteEvery: 20,
    };
    const states = fitnessStates(seed, env.settings.fitnessShardDatabases.length);
    let t = performance.now();
    await seedSource(env.resources, states);
    const seedSourceMs = performance.now() - t;
    t = performance.now();
    await seedProjection(env.resources, states);
    const seedProjectionMs = performance.now() - t;
    await env.resources.clickhouse.command({ query: `OPTIMIZE TABLE ${ident(env.settings.clickhouseDatabase)}.fitness_results FINAL` });

    const timings: Record<string, Timing> = {};
    async function measure(name: string, level: ReconcileLevel, s: ReconciliationService = service, runs = 3) {
      const ms: number[] = [];
      const attempts: number[] = [];
      let last: Awaited<ReturnType<typeof service.reconcile>> | undefined;
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        last = await s.reconcile(scope, level, { requestedBy: 'bench', escalate: false });
        ms.push(performance.now() - t0);
        attempts.push(last.run.attempts);
      }
      const run = last!.run;
      const discrepancies = last!.discrepancies.length;
      timings[name] = {
        ms: Math.round(median(ms)),
        outcome: String(run.outcome),
        attempts,
        discrepancies,
        bucketsMismatched: run.bucketsMismatched,
      };
    }
    async function clean(suffix: string) {
      await measure(`counts${suffix}`, 'COUNTS');
      await measure(`ids (bucketed)${suffix}`, 'IDS');
      await measure(`content (bucketed)${suffix}`, 'CONTENT');
    }
    async function withDiscrepancies(suffix: string) {
      await measure(`content (bucketed, 3 discrepancies)${suffix}`, 'CONTENT');
      await measure(`content (record by record, 3 discrepancies)${suffix}`, 'CONTENT', direct);
    }

    let loadReport: Record<string, unknown> | undefined;
    if (rate) {
      // The whole pipeline, and writes into another campaign flowing through it before anything is timed.
      app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
      await clean(' quiet');
      load = startWriteLoad({
        url: app.gateway!.url,
        headers: await authHeader(env.settings, 'service'),
        detectId: 50002,
        perSecond: rate,
      });
      await waitFor(async () => load!.ok() >= rate * 2, { timeoutMs: 30000, what: 'the write load flowing' });
      const started = { at: performance.now(), ok: load.ok() };
      await clean(' under load');
      const catchUp = await catchUpWaits(env, 10);
      const seconds = (performance.now() - started.at) / 1000;
      const writes = load.ok() - started.ok;
      loadReport = {
        offeredPerSecond: rate,
        during: { writes, seconds: Math.round(seconds * 10) / 10, perSecond: Math.round((writes / seconds) * 10) / 10 },
        catchUpWaitMs: catchUp,
      };
    } else await clean('');

    // Inject a missing row, a stale version and a wrong school.
    const db = env.settings.clickhouseDatabase;
    const live = states.filter((s) => !s.isDeleted);
    const [missing, stale, wrong] = [live[100]!, live.find((s) => s.version === 2)!, live[500]!];
    await deleteRows(env.resources.clickhouse, SINGLE_SERVER, db, 'fitness_results', `data_id = ${uint(missing.dataId)}`);
    await deleteRows(env.resources.clickhouse, SINGLE_SERVER, db, 'fitness_results', `data_id = ${uint(stale.dataId)} AND version = 2`);
    const mapped = fitnessDecoder.decode(
      toEnvelope(eventOfState({ ...wrong, schoolId: wrong.schoolId + 1 })),
      { kafkaPartition: 0, kafkaOffset: '0' },
      Date.now(),
    );
    if (!mapped.ok) throw new Error('mapping failed');
    await insertJsonEachRow(env.resources.clickhouse, db, 'fitness_results', [rowLine(FITNESS_RESULTS, mapped.value)]);
    if (load) {
      await withDiscrepancies(' under load');
      const done = { ...(await load.stop()), failures: load.failures() };
      load = undefined;
      loadReport = { ...loadReport, total: done };
      await sleep(2000);
      await withDiscrepancies(' quiet');
    } else await withDiscrepancies('');

    let rebuild: Record<string, unknown> | undefined;
    if (withRebuild) {
      const t0 = performance.now();
      const r = await service.rebuild(scope, 'bench', 'benchmark');
      rebuild = {
        ms: Math.round(performance.now() - t0),
        status: r.status,
        phase: r.phase,
        sourceRows: r.sourceRows,
        quarantined: r.quarantined,
      };
    }

    console.log(
      JSON.stringify(
        {
          results: count,
          liveResults: live.length,
          shards: env.settings.fitnessShardDatabases.length,
          bucketCount: env.settings.reconcileBucketCount,
          loadAverageAtEnd: loadAverage(),
          seedSourceMs: Math.round(seedSourceMs),
          seedProjectionMs: Math.round(seedProjectionMs),
          ...(loadReport ? { load: loadReport } : {}),
          reconcileMedianMs: timings,
          ...(rebuild ? { rebuild } : {}),
        },
        null,
        2,
      ),
    );
  } finally {
    await load?.stop();
    await app?.stop();
    await direct.stop();
    await service.stop();
    await env.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
