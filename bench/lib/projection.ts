// Row 4's timed projection as a helper: projector processes (bench/workers/roleWorker.ts) in a fresh
// consumer group read the row's fitness topic from the start, timed from the first member's join until
// ClickHouse holds every event; CPU of the members (and optionally of another process, such as the
// ClickHouse server) and the machine's busy share over the same interval. Rows 4 and 8 use it.
import { performance } from 'node:perf_hooks';
import type { ClickHouseClient } from '../../src/infra/clickhouse/fromClickHouse';
import { ident } from '../../src/infra/clickhouse/literal';
import { waitFor } from '../../src/shared/lifecycle';
import { childEnvFor, type BenchEnv } from './benchEnv';
import { cpuMs, machineBusySince, machineTicks } from './cpuTime';
import { startRoleWorker, type RoleWorker } from './processes';
import type { BenchContext } from './row';
import { round } from './stats';

/** Physical rows of a table (optionally matching `where`, SQL built from numbers only). */
export async function chCount(ch: ClickHouseClient, db: string, table: string, where?: string): Promise<number> {
  const rs = await ch.query({
    query: `SELECT count() AS n FROM ${ident(db)}.${ident(table)}${where ? ` WHERE ${where}` : ''}`,
    format: 'JSONEachRow',
  });
  return Number(((await rs.json()) as { n: string | number }[])[0]!.n);
}

export interface ProjectionRun {
  ms: number;
  /** CPU-ms per event of the projector process(es). */
  cpuMsPerEvent: number;
  machineBusy: number;
  /** CPU-ms per event of `alsoPid` (e.g. the ClickHouse server) over the same interval. */
  alsoCpuMsPerEvent?: number;
}

/** The consumer group of one timed projection (fresh per run, so it reads the topic from the start). */
export function projectorGroupId(topicPrefix: string, label: string): string {
  return `${topicPrefix}.bench-projector-${label}`;
}

/**
 * `members` projector processes in a fresh consumer group over `env`'s topics, timed from the moment
 * the first of them joined its group and owns partitions until ClickHouse holds `total` rows ingested since
 * then (a fresh group re-reads the whole topic, so the same events can be projected again).
 */
export async function timeProjection(
  ctx: BenchContext,
  env: BenchEnv,
  o: { members: number; total: number; label: string; alsoPid?: number },
): Promise<ProjectionRun> {
  const s = env.settings;
  const ch = env.resources.clickhouse;
  const groupEnv = childEnvFor(s, { PROJECTOR_GROUP_ID: projectorGroupId(s.kafkaTopicPrefix, o.label) });
  const started: RoleWorker[] = [];
  try {
    started.push(
      ...(await Promise.all(
        Array.from({ length: o.members }, (_, i) =>
          startRoleWorker({
            name: `projector-${i + 1}`,
            roles: ['projector'],
            env: groupEnv,
            cpuProfDir: ctx.profileDir ? `${ctx.profileDir}/${o.label}` : undefined,
          }),
        ),
      )),
    );
    await ctx.settle();
    const since = Date.now();
    const cpu0 = started.reduce((n, w) => n + cpuMs(w.pid), 0);
    const also0 = o.alsoPid === undefined ? Number.NaN : cpuMs(o.alsoPid);
    const ticks0 = machineTicks();
    // The first member to join starts consuming while the others still join (and a rebalance follows),
    // so the clock starts at the first join; CPU and the busy share include the joins.
    const joinedAt = await Promise.all(started.map((w) => w.go().then(() => performance.now())));
    const t0 = Math.min(...joinedAt);
    await waitFor(async () => (await chCount(ch, s.clickhouseDatabase, 'fitness_results', `ingested_at_ms >= ${since}`)) >= o.total, {
      timeoutMs: 600_000,
      intervalMs: 100,
      what: 'projection complete',
    });
    const ms = performance.now() - t0;
    const machineBusy = machineBusySince(ticks0);
    const cpu = started.reduce((n, w) => n + cpuMs(w.pid), 0) - cpu0;
    const also = o.alsoPid === undefined ? undefined : round((cpuMs(o.alsoPid) - also0) / o.total, 4);
    return { ms, cpuMsPerEvent: round(cpu / o.total, 4), machineBusy, ...(also === undefined ? {} : { alsoCpuMsPerEvent: also }) };
  } finally {
    for (const w of started) await w.stop().catch(() => undefined);
  }
}
