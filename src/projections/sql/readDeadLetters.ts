// SELECT from projector_dead_letters, each message at its highest version (argMax, never FINAL):
// the operator's list (no message content: where it came from, why, eventId and aggregate when
// decodable, when, how often replayed) with keyset pagination on (dead_at_ms, topic, partition,
// offset); the full stored rows of chosen messages for a replay; and the backlog per domain for
// the gauge. Aliases differ from column names (18.16 calls `argMax(x, v) AS x` a cyclic alias).
// No locks in ClickHouse reads; values reach SQL only through the literal formatter.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { ident, list, str, uint } from '../../infra/clickhouse/literal';
import type { Domain } from '../../publication/event';
import type { DeadLetterReason } from '../../domains/contract/decoded';
import type { StoredDeadLetter } from './insertDeadLetters';

/** Where a message came from: what names one dead letter. */
export interface DeadLetterKey {
  topic: string;
  partition: number;
  offset: string;
}

export interface DeadLetterFilter {
  domain?: Domain;
  reasons?: DeadLetterReason[];
  /** Default: DEAD only (the backlog). */
  statuses?: StoredDeadLetter['status'][];
  /** Only these messages. */
  keys?: DeadLetterKey[];
}

export type DeadLetterSummary = Omit<StoredDeadLetter, 'key' | 'value' | 'headers' | 'consumer' | 'version'>;

export interface DeadLetterCursor {
  deadAtMs: number;
  topic: string;
  partition: number;
  offset: string;
}

const COLUMNS = [
  'domain',
  'reason',
  'detail',
  'event_id',
  'aggregate_id',
  'dead_at_ms',
  'status',
  'replays',
  'last_replayed_at_ms',
  'last_replayed_by',
  'message_key',
  'message_value',
  'message_headers',
];

function latest(database: string, consumer: string, withMessage: boolean): string {
  const cols = COLUMNS.filter((c) => withMessage || !c.startsWith('message_')).map((c) => `argMax(${c}, version) AS l_${c}`);
  return `SELECT source_topic, source_partition, source_offset, ${cols.join(', ')}, max(version) AS l_version
            FROM ${ident(database)}.projector_dead_letters WHERE consumer = ${str(consumer)}
           GROUP BY source_topic, source_partition, source_offset`;
}

function conditions(f: DeadLetterFilter): string[] {
  const w = [`l_status IN ${list(f.statuses?.length ? f.statuses : ['DEAD'], str)}`];
  if (f.domain) w.push(`l_domain = ${str(f.domain)}`);
  if (f.reasons?.length) w.push(`l_reason IN ${list(f.reasons, str)}`);
  if (f.keys) {
    const keys = f.keys.map(
      (k) => `(source_topic = ${str(k.topic)} AND source_partition = ${uint(k.partition)} AND source_offset = ${uint(k.offset)})`,
    );
    w.push(keys.length ? `(${keys.join(' OR ')})` : '0');
  }
  return w;
}

/** After the cursor in (dead_at_ms, topic, partition, offset) order, spelled out (no tuple comparison on 18.16). */
function after(c: DeadLetterCursor): string {
  const [d, t, p, o] = [uint(c.deadAtMs), str(c.topic), uint(c.partition), uint(c.offset)];
  const sameTopic = `(source_partition > ${p} OR (source_partition = ${p} AND source_offset > ${o}))`;
  return `(l_dead_at_ms > ${d} OR (l_dead_at_ms = ${d} AND (source_topic > ${t} OR (source_topic = ${t} AND ${sameTopic}))))`;
}

type Row = Record<string, string | number>;

function summaryOf(r: Row): DeadLetterSummary {
  return {
    domain: String(r.l_domain) as Domain,
    sourceTopic: String(r.source_topic),
    sourcePartition: Number(r.source_partition),
    sourceOffset: String(r.offset_s),
    reason: String(r.l_reason) as DeadLetterReason,
    detail: String(r.l_detail),
    eventId: String(r.l_event_id),
    aggregateId: String(r.l_aggregate_id),
    deadAtMs: Number(r.dead_at_s),
    status: String(r.l_status) as StoredDeadLetter['status'],
    replays: Number(r.l_replays),
    lastReplayedAtMs: Number(r.replayed_at_s),
    lastReplayedBy: String(r.l_last_replayed_by),
  };
}

const NUMBERS = [
  'toString(source_offset) AS offset_s',
  'toString(l_dead_at_ms) AS dead_at_s',
  'toString(l_last_replayed_at_ms) AS replayed_at_s',
  'toString(l_version) AS version_s',
].join(', ');

/** One page of the list, oldest first. */
export async function listDeadLetters(
  ch: ClickHouseClient,
  database: string,
  consumer: string,
  f: DeadLetterFilter,
  first: number,
  cursor?: DeadLetterCursor,
): Promise<DeadLetterSummary[]> {
  const w = conditions(f);
  if (cursor) w.push(after(cursor));
  const rs = await ch.query({
    query: `SELECT *, ${NUMBERS} FROM (${latest(database, consumer, false)}) WHERE ${w.join(' AND ')}
             ORDER BY l_dead_at_ms, source_topic, source_partition, source_offset LIMIT ${uint(first)}`,
    format: 'JSONEachRow',
  });
  return (await rs.json<Row>()).map(summaryOf);
}

/** The stored rows (with the message) of the chosen dead letters, for a replay. */
export async function storedDeadLetters(
  ch: ClickHouseClient,
  database: string,
  consumer: string,
  f: DeadLetterFilter,
  limit: number,
): Promise<StoredDeadLetter[]> {
  const rs = await ch.query({
    query: `SELECT *, ${NUMBERS} FROM (${latest(database, consumer, true)}) WHERE ${conditions(f).join(' AND ')}
             ORDER BY l_dead_at_ms, source_topic, source_partition, source_offset LIMIT ${uint(limit)}`,
    format: 'JSONEachRow',
  });
  return (await rs.json<Row>()).map((r) => ({
    ...summaryOf(r),
    consumer,
    key: String(r.l_message_key),
    value: String(r.l_message_value),
    headers: String(r.l_message_headers),
    version: Number(r.version_s),
  }));
}

/** Dead letters not replayed (status DEAD), per domain. */
export async function deadLetterBacklog(ch: ClickHouseClient, database: string, consumer: string): Promise<Map<Domain, number>> {
  const rs = await ch.query({
    query: `SELECT l_domain, count() AS n FROM (${latest(database, consumer, false)}) WHERE l_status = 'DEAD' GROUP BY l_domain`,
    format: 'JSONEachRow',
  });
  return new Map((await rs.json<{ l_domain: Domain; n: string }>()).map((r) => [r.l_domain, Number(r.n)]));
}
