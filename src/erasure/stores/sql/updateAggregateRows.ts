// SQL (ClickHouse): a pseudonymisation's rewrite of kept rows: ALTER TABLE ... UPDATE <subject column>
// = '<pseudonym>' WHERE <the aggregates' rows still naming the subject>, a mutation that rewrites every
// part holding a matching row, so the old value is gone from disk once it finished (not a new version:
// ReplacingMergeTree would keep the old row until a merge, readable with FINAL-less reads meanwhile).
// Only a column outside ORDER BY, PARTITION BY and the sampling key can be updated: the orders
// projection's customer_id is a content column (migrations/clickhouse/003_orders.ts orders by order_id
// and partitions by created_at), so one UPDATE per table suffices.
//   Sync and cluster as deleteAggregateRows.ts: mutations_sync = 2 where the server knows it (26.7),
//   polling system.mutations otherwise (18.16, the caller waits); ON CLUSTER on the local tables.
// Locking: inserts and reads continue while it runs; a row inserted after it started keeps its value
// (the guard has writers insert the pseudonym by then, and a later erase call updates again).
// The assignment and condition are built from literal.ts values by the caller.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { onCluster, type ClickHouseLayout } from '../../../infra/clickhouse/layout';
import { ident } from '../../../infra/clickhouse/literal';

export async function updateWhere(
  ch: ClickHouseClient,
  l: ClickHouseLayout,
  database: string,
  storageTable: string,
  assignment: string,
  where: string,
  sync: boolean,
): Promise<void> {
  await ch.command({
    query: `ALTER TABLE ${ident(database)}.${ident(storageTable)}${onCluster(l)} UPDATE ${assignment} WHERE ${where}`,
    ...(sync ? { clickhouse_settings: { mutations_sync: '2' } } : {}),
  });
}
