// What a freshness marker costs next to the data query it accompanies: mean time of
// `forScope` with the cache off (every call reads MySQL shards, Kafka offsets and ClickHouse
// checkpoints) and on (FRESHNESS_CACHE_MS 1000), against a fitnessPage query of 50 results.
// Run: npx tsx bench/freshnessCost.ts
import type { Principal } from '../src/auth/principal';
import { createRegistry } from '../src/metrics/registry';
import { readModelsFrom } from '../src/app/wiring/readModels';
import { silentLogger } from '../src/shared/logger';
import { createTestEnv } from '../test/support/testEnv';

const OPERATOR: Principal = { subject: 'bench-operator', roles: ['operator'] };

async function time(n: number, fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - t) / 1e6 / n;
}

async function main(): Promise<void> {
  const env = await createTestEnv();
  try {
    const scope = { domain: 'fitness' as const, dataEquals: { detectId: 10001 } };
    const uncached = readModelsFrom(env.resources, {
      registry: createRegistry(false),
      logger: silentLogger,
      settings: { ...env.settings, freshnessCacheMs: 0 },
    });
    const cached = readModelsFrom(env.resources, {
      registry: createRegistry(false),
      logger: silentLogger,
      settings: { ...env.settings, freshnessCacheMs: 1000 },
    });
    await uncached.freshness.forScope(scope);
    await cached.freshness.forScope(scope);
    const n = 200;
    const result = {
      uncachedMarkerMs: await time(n, () => uncached.freshness.forScope(scope)),
      cachedMarkerMs: await time(n, () => cached.freshness.forScope(scope)),
      perAggregateBatchOf50Ms: await time(n / 4, () =>
        uncached.freshness.forAggregates(
          'fitness',
          Array.from({ length: 50 }, (_, i) => String(100 + i * 100 + (i % 2))),
        ),
      ),
      fitnessPage50Ms: await time(n, () => uncached.fitnessPage(OPERATOR, { detectId: 10001 }, 50)),
    };
    console.log(JSON.stringify(Object.fromEntries(Object.entries(result).map(([k, v]) => [k, Math.round(v * 100) / 100]))));
    await uncached.close();
    await cached.close();
  } finally {
    await env.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
