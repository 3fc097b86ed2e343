// SQL (ClickHouse): which storage tables of a rebuild exist, and their UUIDs. After a crash this is
// how recovery (recoverRebuilds.ts) tells whether the swap happened: a server finishes a DDL statement
// even when its client dies, so the tables are either before or after the swap, never between.
//   18.16 (and Ordinary databases on current releases): system.tables has no `uuid` column (18.16), or
//     an all-zero one (Ordinary); the swap is RENAME live -> retired, shadow -> live, so the retired
//     table exists exactly when the swap happened. UUIDs read as null here.
//   Current releases, Atomic databases: EXCHANGE TABLES keeps both names, each now naming the other
//     table's storage, which keeps its UUID. The shadow's UUID, recorded on the rebuild row right after
//     it was created, under the live name means the swap happened.
//   Cluster: the storage tables are the `<table>_local` ones (infra/clickhouse/layout.ts); they are
//     read on the server the client is connected to. ON CLUSTER DDL is run by every server from the
//     distributed DDL queue, whatever became of the client that queued it.
// One read of system.columns (does `uuid` exist) and one of system.tables; no locking.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { storageTable, type ClickHouseLayout } from '../../../infra/clickhouse/layout';
import { list, str } from '../../../infra/clickhouse/literal';

export interface StorageTableFacts {
  exists: boolean;
  /** The storage table's UUID; null where ClickHouse has none (18.16, Ordinary databases). */
  uuid: string | null;
}

const NO_UUID = /^[0-]*$/;

/** Facts about the storage table of each of `tables` (names as readers use them), keyed by that name. */
export async function storageTableFacts(
  ch: ClickHouseClient,
  l: ClickHouseLayout,
  database: string,
  tables: string[],
): Promise<Map<string, StorageTableFacts>> {
  const hasUuid = await ch.query({
    query: `SELECT count() AS n FROM system.columns WHERE database = 'system' AND table = 'tables' AND name = 'uuid'`,
    format: 'JSONEachRow',
  });
  const uuidColumn = Number((await hasUuid.json<{ n: string | number }>())[0]?.n ?? 0) > 0 ? 'toString(uuid)' : "''";
  const storage = new Map(tables.map((t) => [storageTable(l, t), t]));
  const rs = await ch.query({
    query: `SELECT name, ${uuidColumn} AS uuid FROM system.tables WHERE database = ${str(database)} AND name IN ${list([...storage.keys()], str)}`,
    format: 'JSONEachRow',
  });
  const found = new Map((await rs.json<{ name: string; uuid: string }>()).map((r) => [r.name, r.uuid]));
  const facts = new Map<string, StorageTableFacts>();
  for (const [local, table] of storage) {
    const uuid = found.get(local);
    facts.set(table, { exists: uuid !== undefined, uuid: uuid === undefined || NO_UUID.test(uuid) ? null : uuid });
  }
  return facts;
}
