// SQL: remove physical rows from a projection table (ALTER TABLE ... DELETE, a mutation; 18.16 and
// current releases), then wait until ClickHouse finished it. Used only by audited operations: an
// operator's removal of unexpected rows, and the sweep of quarantined content a rebuild replaced.
//
// Locking: a mutation rewrites the affected parts in the background; inserts and reads continue
// meanwhile (readers see old or new parts, never a half-written one). Rows inserted after the
// mutation started are not touched by it. No server-side parameters: `where` is built from
// literal.ts values by the caller.
// Cluster (infra/clickhouse/layout.ts): the mutation acts on the local tables ON CLUSTER (ClickHouse
// runs it on one replica per shard, replication carries it to the others), and the wait reads
// system.mutations of every server of the cluster (remote() over the cluster's addresses; a server
// that is down is skipped and applies the mutation from the replication log when it returns).
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { onCluster, storageTable, type ClickHouseLayout } from '../../../infra/clickhouse/layout';
import { ident } from '../../../infra/clickhouse/literal';
import { mutationsPending } from '../../../infra/clickhouse/mutations';
import { TidemarkError } from '../../../shared/errors';
import { sleep } from '../../../shared/lifecycle';

export async function deleteRows(
  ch: ClickHouseClient,
  l: ClickHouseLayout,
  database: string,
  table: string,
  where: string,
  timeoutMs = 60000,
): Promise<void> {
  const local = storageTable(l, table);
  await ch.command({ query: `ALTER TABLE ${ident(database)}.${ident(local)}${onCluster(l)} DELETE WHERE ${where}` });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await mutationsPending(ch, l, database, [local])) === 0) return;
    if (Date.now() > deadline)
      throw new TidemarkError('STORE_UNAVAILABLE', 'ClickHouse did not finish the deletion in time; it continues in the background', {
        retriable: true,
      });
    await sleep(100);
  }
}

/** Physical rows matching `where` (to know whether a deletion is needed at all). */
export async function countRows(ch: ClickHouseClient, database: string, table: string, where: string): Promise<number> {
  const rs = await ch.query({ query: `SELECT count() AS n FROM ${ident(database)}.${ident(table)} WHERE ${where}`, format: 'JSONEachRow' });
  const [row] = await rs.json<{ n: string | number }>();
  return Number(row?.n ?? 0);
}
