// What the projector has applied, per topic partition: any gateway instance reads it to compute
// freshness. ReplacingMergeTree(applied_at_ms) keeps the latest checkpoint per (consumer, topic, partition).
// DDL valid on ClickHouse 18.16 and current releases: no DateTime64, explicit columns, no DEFAULT reliance.
import type { ClickHouseMigration } from '../types';

export const ch001ProjectionCheckpoints: ClickHouseMigration = {
  version: 1,
  name: 'projection_checkpoints',
  statements: (t) => [
    ...t.create({
      name: 'projection_checkpoints',
      columns: `      consumer String,
      topic String,
      partition UInt32,
      next_offset UInt64,
      source_commit_ms UInt64,
      applied_at_ms UInt64`,
      engine: 'ReplacingMergeTree(applied_at_ms)',
      orderBy: '(consumer, topic, partition)',
      shardingKey: 'cityHash64(consumer, topic, partition)',
    }),
  ],
  down: (t) => [...t.drop('projection_checkpoints')],
};
