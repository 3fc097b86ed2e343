// INSERT INTO fitness_results: one statement per flush carrying every fitness row of the flush.
// Every column is written (18.16 ignores DEFAULTs of omitted JSONEachRow fields), including the
// source commit time and the ingest time. No locking: ClickHouse inserts are append-only; a repeated
// insert of the same version is collapsed by ReplacingMergeTree(version) and by argMax at read time.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { canonicalDecimal } from '../../shared/decimal';
import type { FitnessRow } from '../rows';
import { clickHouseDateTime } from '../time';
import { insertJsonEachRow, jsonLine, uint64Text } from './insertJsonEachRow';

export function fitnessLine(r: FitnessRow): string {
  // Defence in depth: the mapper already canonicalised; this is what makes the raw write safe.
  const result = canonicalDecimal(r.result, 3);
  if (result === undefined) throw new TypeError('fitness result is not a canonical decimal');
  return jsonLine(
    {
      data_id: r.dataId,
      detect_id: r.detectId,
      user_id: r.userId,
      project_id: r.projectId,
      school_id: r.schoolId,
      grade: r.grade,
      unit: r.unit,
      version: r.version,
      is_deleted: r.isDeleted ? 1 : 0,
      created_at: clickHouseDateTime(r.createdAtMs),
      created_at_ms: r.createdAtMs,
      source_commit_at: clickHouseDateTime(r.sourceCommitMs),
      source_commit_ms: r.sourceCommitMs,
      ingested_at: clickHouseDateTime(r.ingestedAtMs),
      ingested_at_ms: r.ingestedAtMs,
      event_id: r.eventId,
      shard: r.shard,
      kafka_partition: r.kafkaPartition,
    },
    { result, kafka_offset: uint64Text(r.kafkaOffset) },
  );
}

export function insertFitnessResults(ch: ClickHouseClient, database: string, rows: FitnessRow[]): Promise<void> {
  return insertJsonEachRow(ch, database, 'fitness_results', rows.map(fitnessLine));
}
