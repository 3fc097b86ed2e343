// INSERT INTO projection_expired_offsets: the offset ranges a flush's partitions skipped because
// Kafka's retention deleted them before they were applied, written in the same flush and before the
// checkpoint that moves past them, so the evidence is never lost behind a committed offset. Status
// OPEN at version detected_at_ms; the reconciler writes the RESOLVED row later. No locking: append-only.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { ExpiredRange } from '../rows';
import { insertJsonEachRow, jsonLine, uint64Text } from './insertJsonEachRow';

export interface ExpiredRangeRow extends ExpiredRange {
  status: 'OPEN' | 'RESOLVED';
  resolvedAtMs: number;
  note: string;
  version: number;
}

function expiredLine(consumer: string, r: ExpiredRangeRow): string {
  return jsonLine(
    {
      consumer,
      domain: r.domain,
      topic: r.topic,
      partition: r.partition,
      window_from_ms: r.windowFromMs,
      window_to_ms: r.windowToMs,
      detected_at_ms: r.detectedAtMs,
      status: r.status,
      resolved_at_ms: r.resolvedAtMs,
      note: r.note.slice(0, 300),
      version: r.version,
    },
    {
      from_offset: uint64Text(r.fromOffset),
      to_offset: uint64Text(r.toOffset),
      skipped: uint64Text((BigInt(r.toOffset) - BigInt(r.fromOffset)).toString()),
    },
  );
}

export function insertExpiredOffsets(ch: ClickHouseClient, database: string, consumer: string, rows: ExpiredRangeRow[]): Promise<void> {
  return insertJsonEachRow(
    ch,
    database,
    'projection_expired_offsets',
    rows.map((r) => expiredLine(consumer, r)),
  );
}
