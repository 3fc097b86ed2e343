// SELECT the projector's applied position per partition from projection_checkpoints (ClickHouse).
// max() over every checkpoint row rather than the latest row: offsets and applied commit times only
// grow, so a late checkpoint from a member that already lost the partition can never move the answer
// backwards. No FINAL needed (and no locks exist in ClickHouse reads). Values reach SQL only through
// the literal formatter.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident, str } from '../../../infra/clickhouse/literal';

export interface AppliedPosition {
  partition: number;
  nextOffset: bigint;
  sourceCommitMs: number;
}

export async function readCheckpoints(ch: ClickHouseClient, database: string, consumer: string, topic: string): Promise<AppliedPosition[]> {
  const rs = await ch.query({
    query: `SELECT partition, toString(max(next_offset)) AS max_next_offset, toString(max(source_commit_ms)) AS max_commit_ms
            FROM ${ident(database)}.projection_checkpoints
            WHERE consumer = ${str(consumer)} AND topic = ${str(topic)}
            GROUP BY partition`,
    format: 'JSONEachRow',
  });
  const rows = await rs.json<{ partition: number | string; max_next_offset: string; max_commit_ms: string }>();
  return rows.map((r) => ({
    partition: Number(r.partition),
    nextOffset: BigInt(r.max_next_offset),
    sourceCommitMs: Number(r.max_commit_ms),
  }));
}
