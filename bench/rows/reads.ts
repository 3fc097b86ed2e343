// Row 6, reads: `fitnessResult(dataId)` and `fitnessReport` through the gateway child (token check,
// DataLoader, freshness marker, GraphQL serialisation) versus the very same ClickHouse SQL run
// directly with @clickhouse/client (the SQL is taken from the read models' own builders), both at a
// fixed concurrency over N results of which 10% were corrected (a second physical version). Rounds
// alternate direct/GraphQL. Target: GraphQL p50 at most 1.5x the direct p50, for both queries.
// The same reads also run with a teacher's token (10 of the 300 schools, ids picked in its scope):
// the scope is part of the ClickHouse query, and scoped reads must cost at most 1.2x unscoped ones.
import { Readable } from 'node:stream';
import { ident } from '../../src/infra/clickhouse/literal';
import { ALL_FITNESS } from '../../src/domains/fitness/policy';
import { fromClickHouse } from '../../src/infra/clickhouse/fromClickHouse';
import type { ReadModelStore } from '../../src/domains/contract/readModelStore';
import { selectFitnessByIds } from '../../src/domains/fitness/read/selectFitnessByIds';
import { selectFitnessReport } from '../../src/domains/fitness/read/selectFitnessReport';
import { benchEnv } from '../lib/benchEnv';
import { startGatewayUnderTest, type GatewayUnderTest } from '../lib/gateway';
import { closedLoop, type LoadReport } from '../lib/load';
import { notBuilt, type BenchRow, type RowResult } from '../lib/row';
import { round, summarize } from '../lib/stats';
import { merge } from './writePath';

const NAME = 'reads: fitnessResult / fitnessReport';
const UNIT = 'ms p50';
const TARGET = 'GraphQL p50 <= 1.5x direct; teacher-scoped p50 <= 1.2x unscoped';
const TEACHER_SCHOOLS = Array.from({ length: 10 }, (_, k) => 100 + k);
// The direct side runs the unscoped service's SQL: every row, no group suppressed.
const UNSUPPRESSED = { scope: ALL_FITNESS, minGroupSize: 0 };
const CAMPAIGNS = 20;
const PROJECTS = 8;
const SCHOOLS = 300;

const LOOKUP = `query Lookup($dataId: ID!) { fitnessResult(dataId: $dataId) { dataId result { dataId detectId userId projectId schoolId grade result unit version updatedAt } freshness { status reason lagMs pendingPublications lagMessages } } }`;
const REPORT = `query Report($detectId: Int!, $projectId: Int!) { fitnessReport(detectId: $detectId, projectId: $projectId, groupBy: SCHOOL) { groups { key unit count min max average p50 p90 p99 } freshness { status reason lagMs pendingPublications } } }`;

/** The SQL a read-model builder would send (captured, not run). */
async function sqlOf(build: (store: ReadModelStore) => Promise<unknown>): Promise<string> {
  let sql = '';
  await build({ select: async (_name, text) => ((sql = text), []) });
  return sql;
}

const dt = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

function seedLine(seq: number, version: number, base: number): string {
  const created = base + seq * 10;
  const commit = created + (version - 1) * 60_000;
  const result = `${1 + (seq % 3)}.${String((seq * 7 + version) % 1000).padStart(3, '0')}`;
  return `{"data_id":${seq * 100 + (seq % 2)},"detect_id":${10000 + (seq % CAMPAIGNS)},"user_id":${seq % 200000},"project_id":${1 + (seq % PROJECTS)},"school_id":${100 + (seq % SCHOOLS)},"grade":${1 + (seq % 12)},"result":${result},"unit":"m","version":${version},"is_deleted":0,"created_at":"${dt(created)}","created_at_ms":${created},"source_commit_at":"${dt(commit)}","source_commit_ms":${commit},"ingested_at":"${dt(commit)}","ingested_at_ms":${commit},"event_id":"fitness-result-${seq * 100 + (seq % 2)}-v${version}","shard":${seq % 2},"kafka_partition":0,"kafka_offset":${seq}}`;
}

export const readsRow: BenchRow = {
  id: 6,
  name: NAME,
  async run(ctx): Promise<RowResult> {
    const results = ctx.quick ? 100_000 : 1_000_000;
    const concurrency = 32;
    const roundMs = ctx.quick ? 3_000 : 12_000;
    const rounds = 2;
    const env = await benchEnv();
    const s = env.settings;
    const direct = fromClickHouse(s);
    let gw: GatewayUnderTest | undefined;
    try {
      gw = await startGatewayUnderTest(s, { cpuProfDir: ctx.profileDir ? `${ctx.profileDir}/row6` : undefined });
      const ops = await gw.operations();
      if (!ops.query.has('fitnessResult') || !ops.query.has('fitnessReport'))
        return notBuilt(6, NAME, UNIT, TARGET, 'needs the fitnessResult and fitnessReport queries');

      ctx.log(`row 6: seeding ${results} results (+10% corrected versions) into ClickHouse`);
      const base = Date.parse('2026-03-01T08:00:00Z');
      const chunk = 100_000;
      for (let from = 1; from <= results; from += chunk) {
        const lines: string[] = [];
        for (let seq = from; seq < from + chunk && seq <= results; seq++) {
          lines.push(seedLine(seq, 1, base));
          if (seq % 10 === 0) lines.push(seedLine(seq, 2, base));
        }
        await direct
          .exec({
            query: `INSERT INTO ${ident(s.clickhouseDatabase)}.fitness_results FORMAT JSONEachRow`,
            values: Readable.from([Buffer.from(`${lines.join('\n')}\n`)], { objectMode: false }),
            clickhouse_settings: { wait_end_of_query: 1 },
          })
          .then(async (r) => {
            for await (const c of r.stream) void c;
          });
      }

      const reader = await gw.client('service', concurrency);
      // Reports as an operator: every group, no suppression, the same SQL as the direct side.
      const operator = await gw.client('operator', concurrency);
      const teacher = await gw.clientFor({ subject: 'bench-teacher', roles: ['teacher'], schoolIds: TEACHER_SCHOOLS }, concurrency);
      const pick = (i: number) => 1 + ((i * 7919) % results);
      // A seq whose school (100 + seq % 300) is one of the teacher's: seq % 300 in 0..9.
      const pickInScope = (i: number) => 300 * (1 + ((i * 7919) % Math.floor(results / 300 - 1))) + (i % 10);
      const dataIdOf = (seq: number) => seq * 100 + (seq % 2);
      const campaign = (i: number) => ({ detectId: 10000 + (i % CAMPAIGNS), projectId: 1 + ((i >> 3) % PROJECTS) });
      let i = 0;
      const run = (op: () => Promise<void>) => closedLoop({ concurrency, durationMs: roundMs, op });
      const directQuery = async (sql: string) => {
        const rs = await direct.query({ query: sql, format: 'JSONEachRow' });
        await rs.json();
      };
      const sides = {
        lookupDirect: async () =>
          directQuery(await sqlOf((st) => selectFitnessByIds(st, s.clickhouseDatabase, ALL_FITNESS, [dataIdOf(pick(i++))]))),
        lookupGraphql: async () => void (await reader.request(LOOKUP, { dataId: String(dataIdOf(pick(i++))) })),
        reportDirect: async () => {
          const c = campaign(i++);
          await directQuery(await sqlOf((st) => selectFitnessReport(st, s.clickhouseDatabase, UNSUPPRESSED, { ...c, groupBy: 'SCHOOL' })));
        },
        reportGraphql: async () => void (await operator.request(REPORT, campaign(i++))),
        lookupTeacher: async () => void (await teacher.request(LOOKUP, { dataId: String(dataIdOf(pickInScope(i++))) })),
        reportTeacher: async () => void (await teacher.request(REPORT, campaign(i++))),
      };
      // Warm up both paths (JIT, ClickHouse marks cache, the freshness cache) before measuring.
      for (const op of Object.values(sides)) await closedLoop({ concurrency: 4, durationMs: 800, op });
      const measured: Record<keyof typeof sides, LoadReport[]> = {
        lookupDirect: [],
        lookupGraphql: [],
        reportDirect: [],
        reportGraphql: [],
        lookupTeacher: [],
        reportTeacher: [],
      };
      for (let r = 0; r < rounds; r++)
        for (const k of Object.keys(sides) as (keyof typeof sides)[]) {
          ctx.log(`row 6: round ${r + 1}/${rounds} ${k}`);
          measured[k].push(await run(sides[k]));
        }
      const m = Object.fromEntries(
        Object.entries(measured).map(([k, reports]) => {
          const all = merge(reports);
          return [
            k,
            {
              ok: all.ok,
              failed: all.failed,
              perSec: round((all.ok * 1000) / all.elapsedMs, 1),
              latencyMs: summarize(all.latencies),
              failures: all.failures,
            },
          ];
        }),
      ) as Record<
        keyof typeof sides,
        { ok: number; failed: number; perSec: number; latencyMs: ReturnType<typeof summarize>; failures: string[] }
      >;
      const lookupFactor = round(m.lookupGraphql.latencyMs.p50 / m.lookupDirect.latencyMs.p50, 2);
      const reportFactor = round(m.reportGraphql.latencyMs.p50 / m.reportDirect.latencyMs.p50, 2);
      const scopedLookupFactor = round(m.lookupTeacher.latencyMs.p50 / m.lookupGraphql.latencyMs.p50, 2);
      const scopedReportFactor = round(m.reportTeacher.latencyMs.p50 / m.reportGraphql.latencyMs.p50, 2);
      const worst = lookupFactor >= reportFactor ? 'lookup' : 'report';
      const failed = Object.values(m).reduce((n, x) => n + x.failed, 0);
      return {
        id: 6,
        name: NAME,
        status: 'ok',
        unit: UNIT,
        ours: worst === 'lookup' ? m.lookupGraphql.latencyMs.p50 : m.reportGraphql.latencyMs.p50,
        ceiling: worst === 'lookup' ? m.lookupDirect.latencyMs.p50 : m.reportDirect.latencyMs.p50,
        ratio: round(1 / Math.max(lookupFactor, reportFactor), 3),
        target: TARGET,
        met: lookupFactor <= 1.5 && reportFactor <= 1.5 && scopedLookupFactor <= 1.2 && scopedReportFactor <= 1.2 && failed === 0,
        details: {
          results,
          corrected: Math.floor(results / 10),
          concurrency,
          rounds,
          roundMs,
          lookupFactor,
          reportFactor,
          scopedLookupFactor,
          scopedReportFactor,
          ...m,
        },
        note: `fitnessResult p50 ${m.lookupGraphql.latencyMs.p50} ms vs direct ${m.lookupDirect.latencyMs.p50} ms (x${lookupFactor}); fitnessReport p50 ${m.reportGraphql.latencyMs.p50} ms vs direct ${m.reportDirect.latencyMs.p50} ms (x${reportFactor}); teacher-scoped lookup p50 ${m.lookupTeacher.latencyMs.p50} ms (x${scopedLookupFactor} unscoped), report p50 ${m.reportTeacher.latencyMs.p50} ms (x${scopedReportFactor})${failed ? `; ${failed} requests failed` : ''}`,
      };
    } finally {
      await gw?.stop().catch(() => undefined);
      await direct.close();
      await env.cleanup();
    }
  },
};
