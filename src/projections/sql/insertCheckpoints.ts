// INSERT INTO projection_checkpoints: one row per topic partition touched by a flush, written only
// after that flush's data inserts were acknowledged, so a checkpoint never claims more than
// ClickHouse holds. Rows accumulate (ReplacingMergeTree(applied_at_ms) merges them eventually);
// readers take max(next_offset) and max(source_commit_ms) per partition, which are monotonic facts
// and therefore immune to a revoked member writing an older checkpoint late. No locking.
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { Checkpoint } from '../rows';
import { insertJsonEachRow, jsonLine, uint64Text } from './insertJsonEachRow';

export function insertCheckpoints(
  ch: ClickHouseClient,
  database: string,
  consumer: string,
  checkpoints: Checkpoint[],
  appliedAtMs: number,
): Promise<void> {
  return insertJsonEachRow(
    ch,
    database,
    'projection_checkpoints',
    checkpoints.map((c) =>
      jsonLine(
        {
          consumer,
          topic: c.topic,
          partition: c.partition,
          source_commit_ms: c.sourceCommitMs,
          applied_at_ms: appliedAtMs,
        },
        { next_offset: uint64Text(c.nextOffset) },
      ),
    ),
  );
}
