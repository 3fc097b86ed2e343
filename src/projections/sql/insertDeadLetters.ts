// INSERT INTO projector_dead_letters: one row per message the flush dead-letters, written in the same
// flush as the data and before the checkpoint, so the operator list never misses a message whose
// offset was committed; and, for an operator's replay, the same row again at a higher version (its
// new status, or its new reason when the current mapping rejects it too). The message (key, value,
// headers) is kept base64-encoded for a replay; it is never returned by a query. No locking:
// append-only; a repeated flush writes the same key again (ReplacingMergeTree keeps one version).
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { Domain } from '../../publication/event';
import { identityOf } from '../deadLetters';
import type { DeadLetterReason } from '../../domains/contract/decoded';
import type { DeadLetter } from '../rows';
import { insertJsonEachRow, jsonLine, uint64Text } from './insertJsonEachRow';

/** A projector_dead_letters row as stored (the message base64-encoded). */
export interface StoredDeadLetter {
  consumer: string;
  domain: Domain;
  sourceTopic: string;
  sourcePartition: number;
  sourceOffset: string;
  reason: DeadLetterReason;
  detail: string;
  /** '' when the message does not name it. */
  eventId: string;
  aggregateId: string;
  deadAtMs: number;
  status: 'DEAD' | 'REPLAYED' | 'DISCARDED';
  replays: number;
  lastReplayedAtMs: number;
  lastReplayedBy: string;
  /** base64; null key stored as ''. */
  key: string;
  value: string;
  /** JSON object of base64 header values. */
  headers: string;
  version: number;
}

const b64 = (v: Buffer | string | null) => (v === null ? '' : (typeof v === 'string' ? Buffer.from(v, 'utf8') : v).toString('base64'));

export function storedOf(consumer: string, d: DeadLetter, deadAtMs: number): StoredDeadLetter {
  const { eventId, aggregateId } = identityOf(d.value);
  return {
    consumer,
    domain: d.domain,
    sourceTopic: d.sourceTopic,
    sourcePartition: d.sourcePartition,
    sourceOffset: d.sourceOffset,
    reason: d.reason,
    detail: d.detail,
    eventId,
    aggregateId,
    deadAtMs,
    status: 'DEAD',
    replays: 0,
    lastReplayedAtMs: 0,
    lastReplayedBy: '',
    key: b64(d.key),
    value: b64(d.value),
    headers: JSON.stringify(Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k, b64(v)]))),
    version: deadAtMs,
  };
}

function deadLetterLine(r: StoredDeadLetter): string {
  return jsonLine(
    {
      consumer: r.consumer,
      domain: r.domain,
      source_topic: r.sourceTopic,
      source_partition: r.sourcePartition,
      reason: r.reason,
      detail: r.detail.slice(0, 300),
      event_id: r.eventId,
      aggregate_id: r.aggregateId,
      dead_at_ms: r.deadAtMs,
      status: r.status,
      replays: r.replays,
      last_replayed_at_ms: r.lastReplayedAtMs,
      last_replayed_by: r.lastReplayedBy.slice(0, 128),
      message_key: r.key,
      message_value: r.value,
      message_headers: r.headers,
      version: r.version,
    },
    { source_offset: uint64Text(r.sourceOffset) },
  );
}

export function insertDeadLetters(ch: ClickHouseClient, database: string, rows: StoredDeadLetter[]): Promise<void> {
  return insertJsonEachRow(ch, database, 'projector_dead_letters', rows.map(deadLetterLine));
}
