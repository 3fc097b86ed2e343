// How long a reconciliation of one campaign of 100,000 fitness results takes on this machine, at each
// level, on the real engines: the source rows are bulk-inserted into the two MySQL shards (live rows
// and deletion log: 10% corrected to version 2, 5% deleted) and their projection rows into ClickHouse
// through the projector's own mapping. Then:
//   COUNTS, IDS and CONTENT on a clean scope (bucketed: RECONCILE_BUCKET_COUNT buckets);
//   CONTENT with 3 injected discrepancies (drills into the mismatching buckets only);
//   CONTENT record by record (no buckets) for comparison;
//   optionally (--rebuild) a controlled rebuild of the whole scope.
// Each timing is the wall time of service.reconcile() (ledger writes included); 3 runs, median.
// Run: npx tsx bench/reconcile.ts [count=100000] [--rebuild]
import { performance } from 'node:perf_hooks';
import { createRegistry } from '../src/metrics/registry';
import { ident, uint } from '../src/infra/clickhouse/literal';
import { campaignScope } from '../src/reconciliation/scope';
import type { ReconcileLevel } from '../src/reconciliation/model';
import { reconciliationFrom } from '../src/reconciliation/wiring';
import { deleteRows } from '../src/reconciliation/target/sql/deleteRows';
import { unlimited } from '../src/reconciliation/repair/rateLimiter';
import { silentLogger } from '../src/shared/logger';
import { insertJsonEachRow } from '../src/projections/sql/insertJsonEachRow';
import { fitnessLine } from '../src/projections/sql/insertFitnessResults';
import { mapFitnessEvent } from '../src/projections/fitness/mapFitnessEvent';
import { toEnvelope } from '../src/publication/event';
import { eventOfState } from '../src/reconciliation/fitness/fitnessSource';
import { fitnessStates, seedProjection, seedSource } from '../test/support/reconciliationSeed';
import { createTestEnv } from '../test/support/testEnv';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100000);
  const withRebuild = process.argv.includes('--rebuild');
  const env = await createTestEnv({ reconcileCatchUpWaitMs: 1000 });
  const service = reconciliationFrom(env.resources, { registry: createRegistry(false), logger: silentLogger, rebuildLimiter: unlimited });
  try {
    const scope = campaignScope(50001);
    const states = fitnessStates({ detectId: 50001, count, firstSequence: 1, updatedAt: new Date(Date.now() - 3600_000), correctEvery: 10, deleteEvery: 20 }, env.settings.fitnessShardDatabases.length);
    let t = performance.now();
    await seedSource(env.resources, states);
    const seedSourceMs = performance.now() - t;
    t = performance.now();
    await seedProjection(env.resources, states);
    const seedProjectionMs = performance.now() - t;
    await env.resources.clickhouse.command({ query: `OPTIMIZE TABLE ${ident(env.settings.clickhouseDatabase)}.fitness_results FINAL` });

    const timings: Record<string, { ms: number; outcome: string; discrepancies: number; bucketsMismatched: number }> = {};
    async function measure(name: string, level: ReconcileLevel, runs = 3) {
      const ms: number[] = [];
      let last: Awaited<ReturnType<typeof service.reconcile>> | undefined;
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        last = await service.reconcile(scope, level, { requestedBy: 'bench', escalate: false });
        ms.push(performance.now() - t0);
      }
      timings[name] = { ms: Math.round(median(ms)), outcome: String(last!.run.outcome), discrepancies: last!.discrepancies.length, bucketsMismatched: last!.run.bucketsMismatched };
    }

    await measure('counts', 'COUNTS');
    await measure('ids (bucketed)', 'IDS');
    await measure('content (bucketed)', 'CONTENT');

    // Inject a missing row, a stale version and a wrong school.
    const db = env.settings.clickhouseDatabase;
    const live = states.filter((s) => !s.isDeleted);
    const [missing, stale, wrong] = [live[100]!, live.find((s) => s.version === 2)!, live[500]!];
    await deleteRows(env.resources.clickhouse, db, 'fitness_results', `data_id = ${uint(missing.dataId)}`);
    await deleteRows(env.resources.clickhouse, db, 'fitness_results', `data_id = ${uint(stale.dataId)} AND version = 2`);
    const mapped = mapFitnessEvent(toEnvelope(eventOfState({ ...wrong, schoolId: wrong.schoolId + 1 })), { kafkaPartition: 0, kafkaOffset: '0' }, Date.now());
    if (!mapped.ok) throw new Error('mapping failed');
    await insertJsonEachRow(env.resources.clickhouse, db, 'fitness_results', [fitnessLine(mapped.value)]);
    await measure('content (bucketed, 3 discrepancies)', 'CONTENT');

    const direct = reconciliationFrom({ ...env.resources, settings: { ...env.settings, reconcileDirectCompareMax: 10_000_000 } }, { registry: createRegistry(false), logger: silentLogger });
    const ms: number[] = [];
    let lastDirect: Awaited<ReturnType<typeof direct.reconcile>> | undefined;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      lastDirect = await direct.reconcile(scope, 'CONTENT', { requestedBy: 'bench', escalate: false });
      ms.push(performance.now() - t0);
    }
    timings['content (record by record, 3 discrepancies)'] = { ms: Math.round(median(ms)), outcome: String(lastDirect!.run.outcome), discrepancies: lastDirect!.discrepancies.length, bucketsMismatched: 0 };
    await direct.stop();

    let rebuild: Record<string, unknown> | undefined;
    if (withRebuild) {
      const t0 = performance.now();
      const r = await service.rebuild(scope, 'bench', 'benchmark');
      rebuild = { ms: Math.round(performance.now() - t0), status: r.status, phase: r.phase, sourceRows: r.sourceRows, quarantined: r.quarantined };
    }

    console.log(
      JSON.stringify(
        {
          results: count,
          liveResults: live.length,
          shards: env.settings.fitnessShardDatabases.length,
          bucketCount: env.settings.reconcileBucketCount,
          seedSourceMs: Math.round(seedSourceMs),
          seedProjectionMs: Math.round(seedProjectionMs),
          reconcileMedianMs: timings,
          ...(rebuild ? { rebuild } : {}),
        },
        null,
        2,
      ),
    );
  } finally {
    await service.stop();
    await env.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
