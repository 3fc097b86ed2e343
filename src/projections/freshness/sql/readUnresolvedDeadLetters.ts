// SELECT the projector dead letters of one domain that nobody has replayed yet (status DEAD at their
// highest version), with the aggregate and the stored message, for the freshness marker: a dead letter
// inside a read's scope makes that read STALE until it is replayed (deadLetterScope.ts matches them).
// argMax over versions (never FINAL): correct before and after merges, on 18.16 and current releases.
// `domain` never changes across a dead letter's versions, so it may filter before the grouping.
// Matching on event data happens in the gateway, not in SQL: the message is stored base64-encoded and
// 18.16 has no JSONExtract; the backlog is small, and the read is bounded (`limit`, the caller treats
// more as "could be anyone's"). Must run AFTER the checkpoint read it is combined with: the projector
// writes a dead letter before the checkpoint that moves past it, so a checkpoint seen implies its dead
// letters are visible. No locks in ClickHouse reads; values reach SQL only through the literal formatter.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident, str, uint } from '../../../infra/clickhouse/literal';
import type { Domain } from '../../../publication/event';

export interface UnresolvedDeadLetterRow {
  partition: number;
  offset: string;
  reason: string;
  /** '' when the message did not name it. */
  aggregateId: string;
  /** base64 of the Kafka key ('' for none). */
  key: string;
  /** base64 of the Kafka value. */
  value: string;
}

export async function readUnresolvedDeadLetters(
  ch: ClickHouseClient,
  database: string,
  consumer: string,
  domain: Domain,
  limit: number,
): Promise<UnresolvedDeadLetterRow[]> {
  const rs = await ch.query({
    query: `SELECT toString(source_partition) AS p, toString(source_offset) AS o, l_reason, l_aggregate_id, l_key, l_value
              FROM (SELECT source_topic, source_partition, source_offset,
                           argMax(status, version) AS l_status, argMax(reason, version) AS l_reason,
                           argMax(aggregate_id, version) AS l_aggregate_id, argMax(message_key, version) AS l_key,
                           argMax(message_value, version) AS l_value
                      FROM ${ident(database)}.projector_dead_letters
                     WHERE consumer = ${str(consumer)} AND domain = ${str(domain)}
                     GROUP BY source_topic, source_partition, source_offset)
             WHERE l_status = 'DEAD'
             ORDER BY source_topic, source_partition, source_offset
             LIMIT ${uint(limit)}`,
    format: 'JSONEachRow',
  });
  const rows = await rs.json<Record<string, string>>();
  return rows.map((r) => ({
    partition: Number(r.p),
    offset: String(r.o),
    reason: String(r.l_reason),
    aggregateId: String(r.l_aggregate_id),
    key: String(r.l_key),
    value: String(r.l_value),
  }));
}
