// What the rebuild integration suites share: finished campaigns seeded on both sides (shards and
// ClickHouse, same content), the real comparison and rebuild dependencies over a test environment, and
// two looks at ClickHouse (the projection's tables, the live table's physical content) that show what a
// rebuild left behind. The verification after a swap is the service's: the per-aggregate snapshot rule.
// On the ClickHouse cluster (npm run test:cluster) the rebuild runs with the cluster's layout and the
// tables are looked at on every server (clusterServers.ts): a shadow left on one server is a failure.
import { fromClickHouse, type ClickHouseClient } from '../../src/infra/clickhouse/fromClickHouse';
import { clickhouseLayout } from '../../src/infra/clickhouse/layout';
import { ident, str } from '../../src/infra/clickhouse/literal';
import { fromPublicationStores } from '../../src/projections/freshness/pendingPublications';
import { fromKafkaAndCheckpoints } from '../../src/projections/freshness/projectionProgress';
import { projectorGroupId } from '../../src/projections/projectorGroup';
import { exponentialBackoff } from '../../src/shared/backoff';
import type { CompareDeps } from '../../src/reconciliation/compareScope';
import type { FitnessResultState } from '../../src/domains/fitness/types';
import { fitnessSource } from '../../src/domains/fitness/reconciliation/fitnessSource';
import type { RebuildRecord } from '../../src/reconciliation/ledger/records';
import { fromFreshnessSources } from '../../src/reconciliation/pipeline/pipelineProbe';
import type { RebuildDeps } from '../../src/reconciliation/rebuild/rebuildProjection';
import { unlimited } from '../../src/reconciliation/repair/rateLimiter';
import type { CampaignScope } from '../../src/domains/fitness/reconciliation/campaignScope';
import { compareSnapshot } from '../../src/reconciliation/snapshot/compareSnapshot';
import { clickhouseTarget } from '../../src/reconciliation/target/clickhouseTarget';
import { compareSettingsOf } from '../../src/app/wiring/reconciliation';
import { systemClock } from '../../src/shared/clock';
import { silentLogger } from '../../src/shared/logger';
import { onEveryServer, sameOnEveryServer } from './clusterServers';
import { fitnessStates, seedProjection, seedSource } from './reconciliationSeed';
import type { TestEnv } from './testEnv';

/** Settings for a test environment whose reconciliations retry fast. */
export const REBUILD_TEST_SETTINGS = { reconcileCatchUpWaitMs: 500, reconcileRetryBaseMs: 50, reconcileRetryMaxMs: 100 };

export function rebuildHarness(env: () => TestEnv) {
  const hourAgo = new Date(Date.now() - 3600_000);
  let nextSequence = 1;
  const seeded = new Map<number, FitnessResultState[]>();
  const ch = () => env().resources.clickhouse;
  const db = () => env().settings.clickhouseDatabase;
  const layout = () => clickhouseLayout(env().settings);

  /** A finished campaign: `count` results in the shards and the same content in ClickHouse. */
  async function campaign(detectId: number, count = 8): Promise<CampaignScope> {
    const states = fitnessStates({ detectId, count, firstSequence: nextSequence, updatedAt: hourAgo }, 2);
    nextSequence += count;
    seeded.set(detectId, states);
    await seedSource(env().resources, states);
    await seedProjection(env().resources, states);
    return { domain: 'fitness', detectId };
  }

  /** The projection's tables; on a cluster each Distributed table with its local tables once, when every server holds them. */
  async function tables(): Promise<string[]> {
    const names = async (c: ClickHouseClient) => {
      const rs = await c.query({
        query: `SELECT name FROM system.tables WHERE database = ${str(db())} AND name LIKE 'fitness_results%' ORDER BY name`,
        format: 'JSONEachRow',
      });
      return (await rs.json<{ name: string }>()).map((r) => r.name);
    };
    return layout().cluster ? sameOnEveryServer(await onEveryServer(env().settings, names)) : names(ch());
  }

  /** The live table's physical content (what readers see), to show a failed rebuild left it alone. */
  async function liveContent(): Promise<string> {
    const rs = await ch().query({
      query: `SELECT count() AS n, sum(cityHash64(data_id, version, toString(result), is_deleted)) AS h FROM ${ident(db())}.fitness_results`,
      format: 'JSONEachRow',
    });
    return JSON.stringify(await rs.json());
  }

  function compareDeps(): Omit<CompareDeps, 'source' | 'target' | 'table' | 'beforeTargetScan'> {
    const r = env().resources;
    return {
      pipeline: fromFreshnessSources({
        pending: fromPublicationStores({ shards: r.mysql, pg: r.pg }),
        progress: fromKafkaAndCheckpoints({
          kafka: r.kafka,
          clickhouse: r.clickhouse,
          database: db(),
          topics: r.topics,
          consumer: projectorGroupId(env().settings),
          staleAfterMs: 60000,
        }),
        clock: systemClock,
      }),
      clock: systemClock,
      retry: exponentialBackoff({ baseMs: 50, maxMs: 100, maxAttempts: 3 }),
      settings: compareSettingsOf(env().settings).fitness,
    };
  }

  function deps(over: Partial<RebuildDeps> = {}, finished: RebuildRecord[] = []): RebuildDeps {
    const source = fitnessSource(env().resources.mysql);
    const target = clickhouseTarget(ch(), db(), 'fitness');
    const compare = compareDeps();
    return {
      ledger: env().resources.pg,
      ch: ch(),
      database: db(),
      layout: layout(),
      source,
      target,
      compare,
      limiter: unlimited,
      clock: systemClock,
      logger: silentLogger,
      catchUpMarginMs: env().settings.rebuildCatchUpMarginMs,
      limitRowsPerSecond: env().settings.rebuildRowsPerSecond,
      staleAfterMs: env().settings.rebuildStaleAfterMs,
      verify: async (scope) => compareSnapshot({ ...compare, source, target }, scope, 'CONTENT', false),
      finished: async (r) => void finished.push(r),
      ...over,
    };
  }

  /** A ClickHouse client that can never connect (a closed port). */
  const unreachableClickHouse = () => fromClickHouse({ ...env().settings, clickhouseUrl: 'http://127.0.0.1:1' });

  /** The states `campaign(detectId)` seeded. */
  const statesOf = (detectId: number): FitnessResultState[] => seeded.get(detectId) ?? [];

  return { hourAgo, ch, db, layout, campaign, statesOf, tables, liveContent, compareDeps, deps, unreachableClickHouse };
}
