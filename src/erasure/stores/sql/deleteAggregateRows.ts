// SQL (ClickHouse): physical deletion of an erasure's rows: ALTER TABLE ... DELETE WHERE, a mutation
// that rewrites every part holding a matching row, so the rows are gone from disk once it finished.
// Not lightweight DELETE (DELETE FROM): that only masks rows, which stay readable in the parts until a
// merge, and 18.16 has none.
//   26.7 (and any release with the setting): mutations_sync = 2 makes the ALTER return once the
//     mutation is done on every replica.
//   18.16 (no mutations_sync): the ALTER returns at once; the wait polls system.mutations until no
//     mutation of the table is left undone. A mutation that fails keeps is_done = 0 and says why in
//     latest_fail_reason: the wait gives up after `timeoutMs` and the caller reports done = false.
//   Cluster (infra/clickhouse/layout.ts): the mutation acts on the local tables ON CLUSTER (one replica
//     per shard runs it, replication carries it), and the wait reads system.mutations of every server
//     (remote() over the cluster's addresses, unavailable servers skipped: they apply it on return).
// Locking: inserts and reads continue while a mutation runs; rows inserted after it started are not
// touched by it (the guard keeps new rows of the aggregates out, and a later erase call deletes again).
// The condition is built from literal.ts values by the caller.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { onCluster, type ClickHouseLayout } from '../../../infra/clickhouse/layout';
import { ident } from '../../../infra/clickhouse/literal';

/** Whether the server knows mutations_sync (current releases), or only the asynchronous mutation (18.16). */
export async function hasMutationsSync(ch: ClickHouseClient): Promise<boolean> {
  const rs = await ch.query({ query: `SELECT count() AS n FROM system.settings WHERE name = 'mutations_sync'`, format: 'JSONEachRow' });
  return Number((await rs.json<{ n: string | number }>())[0]?.n ?? 0) > 0;
}

export async function deleteWhere(
  ch: ClickHouseClient,
  l: ClickHouseLayout,
  database: string,
  storageTable: string,
  where: string,
  sync: boolean,
): Promise<void> {
  await ch.command({
    query: `ALTER TABLE ${ident(database)}.${ident(storageTable)}${onCluster(l)} DELETE WHERE ${where}`,
    ...(sync ? { clickhouse_settings: { mutations_sync: '2' } } : {}),
  });
}
