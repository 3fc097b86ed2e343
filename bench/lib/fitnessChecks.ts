// What a fitness_results table holds against the events that were produced into its topic: physical
// rows, logical rows (the latest version per data_id, argMax as every read of ours does), and whether
// each logical row carries the latest version and result the events say; then the same after a forced
// merge (OPTIMIZE ... FINAL), which is where ReplacingMergeTree(version) drops the older versions.
// A content digest of the latest rows lets two writers of the same events be compared column by column.
import type { ClickHouseClient } from '../../src/infra/clickhouse/fromClickHouse';
import { ident } from '../../src/infra/clickhouse/literal';
import type { DomainEvent } from '../../src/publication/event';

export interface FitnessTableCheck {
  physical: number;
  logical: number;
  /** Logical rows whose latest version or result differs from the latest event of their data_id. */
  wrongLatest: number;
  /** data_ids with events but no row. */
  missing: number;
  /** Logical rows whose latest version is > 1 (corrections applied). */
  corrected: number;
  /** Physical rows after OPTIMIZE TABLE ... FINAL (ReplacingMergeTree keeps one row per data_id). */
  physicalAfterMerge?: number;
  /** Sum of cityHash64 over every business column of the latest rows (not ingest time, not Kafka position). */
  digest: string;
}

/** The latest state per data_id that `events` describe (the highest version wins, whatever the order). */
export function expectedLatest(events: readonly DomainEvent[]): Map<string, { version: number; result: string }> {
  const out = new Map<string, { version: number; result: string }>();
  for (const e of events) {
    const d = e.data as { dataId: number; result: string; version: number };
    const key = String(d.dataId);
    if ((out.get(key)?.version ?? 0) < d.version) out.set(key, { version: d.version, result: d.result });
  }
  return out;
}

async function rows<T>(ch: ClickHouseClient, query: string): Promise<T[]> {
  return (await ch.query({ query, format: 'JSONEachRow' })).json<T>();
}

export async function checkFitnessTable(
  ch: ClickHouseClient,
  database: string,
  expected: Map<string, { version: number; result: string }>,
): Promise<FitnessTableCheck> {
  const t = `${ident(database)}.fitness_results`;
  const latest = `SELECT data_id, max(version) AS v, argMax((detect_id, user_id, project_id, school_id, grade, toString(result), unit,
      is_deleted, created_at, created_at_ms, source_commit_at, source_commit_ms, event_id, shard), version) AS t
    FROM ${t} GROUP BY data_id`;
  const [head] = await rows<{ physical: string; logical: string; corrected: string; digest: string }>(
    ch,
    `SELECT (SELECT count() FROM ${t}) AS physical, count() AS logical, countIf(v > 1) AS corrected,
      toString(sum(cityHash64(data_id, v, toString(t)))) AS digest FROM (${latest})`,
  );
  const got = await rows<{ data_id: string; v: string; r: string }>(
    ch,
    `SELECT data_id, max(version) AS v, toString(argMax(result, version)) AS r FROM ${t} GROUP BY data_id`,
  );
  let wrongLatest = 0;
  const seen = new Set<string>();
  for (const g of got) {
    seen.add(g.data_id);
    const want = expected.get(g.data_id);
    if (!want || Number(g.v) !== want.version || Number(g.r) !== Number(want.result)) wrongLatest++;
  }
  let missing = 0;
  for (const k of expected.keys()) if (!seen.has(k)) missing++;
  return {
    physical: Number(head!.physical),
    logical: Number(head!.logical),
    wrongLatest,
    missing,
    corrected: Number(head!.corrected),
    digest: head!.digest,
  };
}

/** Physical rows after OPTIMIZE TABLE ... FINAL: ReplacingMergeTree(version) keeps one row per data_id. */
export async function physicalAfterMerge(ch: ClickHouseClient, database: string): Promise<number> {
  const t = `${ident(database)}.fitness_results`;
  await ch.command({ query: `OPTIMIZE TABLE ${t} FINAL` });
  return Number((await rows<{ n: string }>(ch, `SELECT count() AS n FROM ${t}`))[0]!.n);
}

/**
 * Runs `work` with background merges of `database`.fitness_results stopped (SYSTEM STOP MERGES, also on
 * 18.16): a merge collapses a data_id's versions into one row, so with corrections among the events the
 * physical row count would stop short of the event count and could not tell when a consumer is done.
 */
export async function withMergesStopped<T>(ch: ClickHouseClient, database: string, work: () => Promise<T>): Promise<T> {
  const t = `${ident(database)}.fitness_results`;
  await ch.command({ query: `SYSTEM STOP MERGES ${t}` });
  try {
    return await work();
  } finally {
    await ch.command({ query: `SYSTEM START MERGES ${t}` });
  }
}
