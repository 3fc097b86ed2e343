// ClickHouse's own Kafka ingestion, the peer of our projector (bench row 8): a Kafka engine table that
// reads every message of the fitness topic as one String, and a materialized view that maps it into a
// fitness_results table created by our own migration (same columns, ReplacingMergeTree(version)).
// Written for ClickHouse 18.16, the server of the local stack, which has none of JSONAsString,
// JSONExtract* or kafka_skip_broken_messages, and whose JSONEachRow cannot read our nested envelope into
// flat columns. So the engine reads each message as a one-column TabSeparated row ('\n' between
// messages; our envelopes hold no tab, newline or backslash, which TabSeparated would unescape), and
// the view takes the fields out with visitParamExtract*: the `data` object first, raw, so `version`
// and `isDeleted` are the data's own and not the envelope's copies of them.
import { performance } from 'node:perf_hooks';
import type { Kafka } from 'kafkajs';
import type { ClickHouseClient } from '../../src/infra/clickhouse/fromClickHouse';
import { ident, str, uint } from '../../src/infra/clickhouse/literal';
import { cpuMs, machineBusySince, machineTicks } from './cpuTime';
import { waitGroupAssigned } from './kafkaUtil';

export interface KafkaEngineTable {
  database: string;
  table: string;
  brokers: string[];
  topic: string;
  group: string;
  /** kafka_num_consumers: librdkafka consumers (group members) inside the server. */
  consumers: number;
}

/** The Kafka engine table: one String column per message; consumers join the group once it exists. */
export function kafkaEngineTableSql(t: KafkaEngineTable): string {
  return `CREATE TABLE ${ident(t.database)}.${ident(t.table)} (message String) ENGINE = Kafka SETTINGS
    kafka_broker_list = ${str(t.brokers.join(','))},
    kafka_topic_list = ${str(t.topic)},
    kafka_group_name = ${str(t.group)},
    kafka_format = 'TabSeparated',
    kafka_row_delimiter = ${str('\n')},
    kafka_num_consumers = ${uint(t.consumers)}`;
}

/** ISO-8601 UTC text as written by toISOString ("2026-03-01T08:00:00.000Z"): DateTime and epoch ms. */
function isoColumns(iso: string, at: string, ms: string): string {
  return `toDateTime(replaceOne(substring(${iso}, 1, 19), 'T', ' '), 'UTC') AS ${at},
    toUInt64(toUnixTimestamp(${at})) * 1000 + toUInt64(substring(${iso}, 21, 3)) AS ${ms}`;
}

/**
 * The materialized view: starting it (CREATE) is what makes the engine stream, and every block it
 * reads is inserted into `target` (db.fitness_results). `positions` fills kafka_partition and
 * kafka_offset from the engine's virtual columns where the server has them (_partition, _offset).
 */
export function fitnessViewSql(o: { database: string; view: string; source: string; target: string; positions: boolean }): string {
  const db = ident(o.database);
  return `CREATE MATERIALIZED VIEW ${db}.${ident(o.view)} TO ${db}.${ident(o.target)} AS
  WITH
    visitParamExtractRaw(message, 'data') AS d,
    visitParamExtractString(d, 'createdAt') AS created,
    visitParamExtractString(d, 'updatedAt') AS updated
  SELECT
    visitParamExtractUInt(d, 'dataId') AS data_id,
    visitParamExtractUInt(d, 'detectId') AS detect_id,
    visitParamExtractUInt(d, 'userId') AS user_id,
    visitParamExtractUInt(d, 'projectId') AS project_id,
    visitParamExtractUInt(d, 'schoolId') AS school_id,
    toUInt16(visitParamExtractUInt(d, 'grade')) AS grade,
    toDecimal64(visitParamExtractString(d, 'result'), 3) AS result,
    visitParamExtractString(d, 'unit') AS unit,
    visitParamExtractUInt(d, 'version') AS version,
    toUInt8(visitParamExtractBool(d, 'isDeleted')) AS is_deleted,
    ${isoColumns('created', 'created_at', 'created_at_ms')},
    ${isoColumns('updated', 'source_commit_at', 'source_commit_ms')},
    now() AS ingested_at,
    toUInt64(toUnixTimestamp(ingested_at)) * 1000 AS ingested_at_ms,
    visitParamExtractString(message, 'eventId') AS event_id,
    toUInt16(visitParamExtractUInt(message, 'shard')) AS shard,
    ${o.positions ? 'toUInt32(_partition)' : 'toUInt32(0)'} AS kafka_partition,
    ${o.positions ? 'toUInt64(_offset)' : 'toUInt64(0)'} AS kafka_offset
  FROM ${db}.${ident(o.source)}`;
}

/** Waits until `count()` reaches `total`; fails once it has not moved for `stallMs` (a stuck consumer). */
async function waitRows(count: () => Promise<number>, total: number, stallMs: number): Promise<{ firstRowsMs: number }> {
  const t0 = performance.now();
  let last = -1;
  let movedAt = t0;
  let firstRowsMs = Number.NaN;
  for (;;) {
    const n = await count();
    const now = performance.now();
    if (n > 0 && Number.isNaN(firstRowsMs)) firstRowsMs = now - t0;
    if (n >= total) return { firstRowsMs };
    if (n !== last) [last, movedAt] = [n, now];
    else if (now - movedAt > stallMs) throw new Error(`the Kafka engine stalled at ${n} of ${total} rows for ${stallMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Creates the view with Kafka positions where the server has the virtual columns, else with zeros (18.16). */
async function createView(ch: ClickHouseClient, view: Omit<Parameters<typeof fitnessViewSql>[0], 'positions'>): Promise<boolean> {
  try {
    await ch.command({ query: fitnessViewSql({ ...view, positions: true }) });
    return true;
  } catch (err) {
    if (!(err instanceof Error) || !/Unknown identifier: _partition/.test(err.message)) throw err;
    await ch.command({ query: fitnessViewSql({ ...view, positions: false }) });
    return false;
  }
}

export interface KafkaEngineRun {
  /** From the moment the engine's consumers own every partition until `total` rows are in the table. */
  ms: number;
  msFromCreate: number;
  firstRowsMsFromCreate: number;
  /** ClickHouse server CPU-ms from CREATE to the last row (NaN without its pid). */
  serverCpuMs: number;
  machineBusy: number;
  positions: boolean;
}

/**
 * Creates the engine table and the view into `t.database`'s (empty) fitness_results and times them
 * until `rows()` (its physical row count) reaches `total`; drops both again (the view first, so the stream
 * stops). The consumers join and fetch as soon as the table exists, so CPU and the machine's busy
 * share run from its CREATE; `ms` starts when they own the partitions, as row 4's projector clock does.
 */
export async function timeKafkaEngine(
  ch: ClickHouseClient,
  kafka: Kafka,
  t: KafkaEngineTable & { partitions: number; total: number; serverPid?: number; rows: () => Promise<number> },
): Promise<KafkaEngineRun> {
  const serverCpu = () => (t.serverPid === undefined ? Number.NaN : cpuMs(t.serverPid));
  const db = ident(t.database);
  const view = { database: t.database, view: `${t.table}_view`, source: t.table, target: 'fitness_results' };
  const cpu0 = serverCpu();
  const ticks0 = machineTicks();
  const created = performance.now();
  try {
    await ch.command({ query: kafkaEngineTableSql(t) });
    const positions = await createView(ch, view);
    const assigned = waitGroupAssigned(kafka, t.group, t.topic, t.partitions).then(() => performance.now());
    assigned.catch(() => undefined); // awaited below; a stall error must not leave it unhandled
    const { firstRowsMs } = await waitRows(t.rows, t.total, 60_000);
    const done = performance.now();
    const machineBusy = machineBusySince(ticks0);
    const serverCpuMs = serverCpu() - cpu0;
    return {
      ms: done - (await assigned),
      msFromCreate: done - created,
      firstRowsMsFromCreate: firstRowsMs,
      serverCpuMs,
      machineBusy,
      positions,
    };
  } finally {
    await ch.command({ query: `DROP TABLE IF EXISTS ${db}.${ident(view.view)}` });
    await ch.command({ query: `DROP TABLE IF EXISTS ${db}.${ident(t.table)}` });
  }
}
