// The fitness read model: every physical version the projector inserted; queries select the latest
// per data_id (argMax by version, or FINAL) and drop tombstones (is_deleted = 1).
//   ENGINE ReplacingMergeTree(version): merges keep the highest business version per ORDER BY key, so
//     a late version 1 never replaces version 2, and a re-delivered version collapses into one row.
//   ORDER BY data_id: the aggregate id alone, so the key is identical across versions (no mutable
//     field such as result or is_deleted may be in it, or versions would never be merged).
//   PARTITION BY toYYYYMM(created_at): created_at is part of the immutable identity of a result, so
//     every version of one result lands in the same partition (merges never cross partitions).
// Times are written explicitly by the projector (18.16 ignores DEFAULTs of omitted JSONEachRow
// fields): second-precision DateTime columns for analysts plus *_ms columns for exact ordering.
// No DateTime64, no LowCardinality: valid on 18.16 and on current ClickHouse. The cluster variant
// (ReplicatedReplacingMergeTree + Distributed) is in docs/projections.md.
import type { ClickHouseMigration } from '../types';

export const ch002FitnessResults: ClickHouseMigration = {
  version: 2,
  name: 'fitness_results',
  statements: (t) => [
    ...t.create({
      name: 'fitness_results',
      columns: `      data_id UInt64,
      detect_id UInt64,
      user_id UInt64,
      project_id UInt64,
      school_id UInt64,
      grade UInt16,
      result Decimal(18, 3),
      unit String,
      version UInt64,
      is_deleted UInt8,
      created_at DateTime('UTC'),
      created_at_ms UInt64,
      source_commit_at DateTime('UTC'),
      source_commit_ms UInt64,
      ingested_at DateTime('UTC'),
      ingested_at_ms UInt64,
      event_id String,
      shard UInt16,
      kafka_partition UInt32,
      kafka_offset UInt64`,
      engine: 'ReplacingMergeTree(version)',
      partitionBy: 'toYYYYMM(created_at)',
      orderBy: 'data_id',
      shardingKey: 'cityHash64(data_id)',
    }),
  ],
  down: (t) => [...t.drop('fitness_results')],
};
