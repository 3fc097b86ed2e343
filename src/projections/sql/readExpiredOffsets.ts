// SELECT the expired offset ranges not yet reconciled (status OPEN at their highest version), from
// projection_expired_offsets: per partition of one topic for the freshness marker, and in full for
// the reconciler that schedules and settles their reconciliation. argMax over versions instead of
// FINAL: correct before and after merges, on 18.16 and current releases. No locks in ClickHouse reads;
// values reach SQL only through the literal formatter.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { ident, str } from '../../infra/clickhouse/literal';
import type { Domain } from '../../publication/event';
import type { ExpiredRangeRow } from './insertExpiredOffsets';

// Aliases differ from column names: ClickHouse 18.16 reports an alias named like the column it
// aggregates as a cyclic alias.
const latest = (database: string, where: string) => `
  SELECT domain, topic, partition, from_offset,
         argMax(to_offset, version) AS l_to, argMax(window_from_ms, version) AS l_window_from, argMax(window_to_ms, version) AS l_window_to,
         argMax(detected_at_ms, version) AS l_detected, argMax(status, version) AS l_status, max(version) AS l_version
    FROM ${ident(database)}.projection_expired_offsets WHERE ${where}
   GROUP BY domain, topic, partition, from_offset`;

/** Offsets expired and not yet reconciled, per partition of the topic (absent: none). */
export async function openExpiredByPartition(
  ch: ClickHouseClient,
  database: string,
  consumer: string,
  topic: string,
): Promise<Map<number, number>> {
  const rs = await ch.query({
    query: `SELECT partition, toString(sum(l_to - from_offset)) AS skipped
              FROM (${latest(database, `consumer = ${str(consumer)} AND topic = ${str(topic)}`)})
             WHERE l_status = 'OPEN' GROUP BY partition`,
    format: 'JSONEachRow',
  });
  const rows = await rs.json<{ partition: number | string; skipped: string }>();
  return new Map(rows.map((r) => [Number(r.partition), Number(r.skipped)]));
}

/** Every OPEN range of the consumer, oldest detection first. */
export async function openExpiredRanges(ch: ClickHouseClient, database: string, consumer: string): Promise<ExpiredRangeRow[]> {
  const rs = await ch.query({
    query: `SELECT domain, topic, partition, toString(from_offset) AS from_s, toString(l_to) AS to_s, toString(l_window_from) AS window_from_s,
                   toString(l_window_to) AS window_to_s, toString(l_detected) AS detected_s, toString(l_version) AS version_s
              FROM (${latest(database, `consumer = ${str(consumer)}`)})
             WHERE l_status = 'OPEN' ORDER BY l_detected, topic, partition, from_offset`,
    format: 'JSONEachRow',
  });
  const rows = await rs.json<Record<string, string | number>>();
  return rows.map((r) => ({
    domain: String(r.domain) as Domain,
    topic: String(r.topic),
    partition: Number(r.partition),
    fromOffset: String(r.from_s),
    toOffset: String(r.to_s),
    windowFromMs: Number(r.window_from_s),
    windowToMs: Number(r.window_to_s),
    detectedAtMs: Number(r.detected_s),
    status: 'OPEN',
    resolvedAtMs: 0,
    note: '',
    version: Number(r.version_s),
  }));
}
