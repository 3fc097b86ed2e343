// INSERT INTO projection_checkpoints: one row per topic partition touched by a flush, written only
// after that flush's data inserts were acknowledged, so a checkpoint never claims more than
// ClickHouse holds. Rows accumulate (ReplacingMergeTree(applied_at_ms) merges them eventually);
// readers take max(next_offset) and max(source_commit_ms) per partition, which are monotonic facts
// and therefore immune to a revoked member writing an older checkpoint late. No locking.
//
// Conditional: a row whose `expectStored` is above 0 is written only while the store still holds a
// checkpoint at least that high (INSERT ... SELECT ... WHERE over a scalar subquery of max(next_offset)).
// A store that lost its checkpoints (emptied, restored from an older copy) then takes no new one from
// this member, so the loss is not hidden under fresh checkpoints until the resume guard (resume/) has
// sought back and re-applied. The subquery and the write are one statement: a truncation can only slip
// between them within that statement. One statement for the whole flush (UNION ALL); valid on 18.16
// and current releases (SELECT without FROM reads system.one; max() of no rows is 0). On a cluster
// the subquery reads the Distributed table (the outer SELECT has none, so it is not made local).
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { ident, str, uint } from '../../infra/clickhouse/literal';
import type { Checkpoint } from '../rows';

export interface CheckpointWrite extends Checkpoint {
  /** What the store must still hold for the partition for this row to be written (0: always written). */
  expectStored: bigint;
}

export async function insertCheckpoints(
  ch: ClickHouseClient,
  database: string,
  consumer: string,
  checkpoints: CheckpointWrite[],
  appliedAtMs: number,
): Promise<void> {
  if (checkpoints.length === 0) return;
  const table = `${ident(database)}.projection_checkpoints`;
  const selects = checkpoints.map((c) => {
    const row =
      `SELECT ${str(consumer)}, ${str(c.topic)}, toUInt32(${uint(c.partition)}), toUInt64(${uint(c.nextOffset)}), ` +
      `toUInt64(${uint(c.sourceCommitMs)}), toUInt64(${uint(appliedAtMs)})`;
    if (c.expectStored <= 0n) return row;
    return (
      `${row} WHERE (SELECT max(next_offset) FROM ${table} WHERE consumer = ${str(consumer)} AND topic = ${str(c.topic)} ` +
      `AND partition = ${uint(c.partition)}) >= toUInt64(${uint(c.expectStored)})`
    );
  });
  const res = await ch.exec({
    query: `INSERT INTO ${table} (consumer, topic, partition, next_offset, source_commit_ms, applied_at_ms) ${selects.join(' UNION ALL ')}`,
    clickhouse_settings: { wait_end_of_query: 1 },
  });
  for await (const chunk of res.stream) void chunk;
}
