// The orders read model: one physical row per delivered OrderPlaced version; queries select the latest
// per order_id (argMax by version) and drop tombstones. Same rules as fitness_results:
//   ReplacingMergeTree(version), ORDER BY the aggregate id only (stable across versions),
//   PARTITION BY the month of the immutable created_at, every time column written explicitly.
// Line items are parallel arrays (sku, quantity, unit price) so reports never need a JSON parser.
// Decimal(18, 4) holds totals up to 10^14 exactly; sums are taken as Decimal128 by ClickHouse.
import type { ClickHouseMigration } from '../types';

export const ch003Orders: ClickHouseMigration = {
  version: 3,
  name: 'orders',
  statements: (t) => [
    ...t.create({
      name: 'orders',
      columns: `      order_id String,
      customer_id String,
      currency String,
      total Decimal(18, 4),
      item_count UInt32,
      item_skus Array(String),
      item_quantities Array(UInt32),
      item_unit_prices Array(Decimal(18, 4)),
      version UInt64,
      is_deleted UInt8,
      created_at DateTime('UTC'),
      created_at_ms UInt64,
      source_commit_at DateTime('UTC'),
      source_commit_ms UInt64,
      ingested_at DateTime('UTC'),
      ingested_at_ms UInt64,
      event_id String,
      kafka_partition UInt32,
      kafka_offset UInt64`,
      engine: 'ReplacingMergeTree(version)',
      partitionBy: 'toYYYYMM(created_at)',
      orderBy: 'order_id',
      shardingKey: 'cityHash64(order_id)',
    }),
  ],
  down: (t) => [...t.drop('orders')],
};
