// Waiting for ClickHouse mutations (ALTER TABLE ... DELETE/UPDATE): the one reader of system.mutations,
// used by every caller that deletes physical rows (an operator's removal of unexpected rows, the
// quarantine sweep, an erasure). A mutation that is not done (or failed: it keeps is_done = 0 and says
// why in latest_fail_reason) counts as pending.
// Cluster (layout.ts): the mutations of every server are read through remote() over the cluster's
// addresses, unavailable servers skipped (they apply the mutation from the replication log on return).
import type { ClickHouseClient } from './fromClickHouse';
import type { ClickHouseLayout } from './layout';
import { str } from './literal';

async function mutationsSource(ch: ClickHouseClient, l: ClickHouseLayout): Promise<string> {
  if (!l.cluster) return 'system.mutations';
  const rs = await ch.query({
    query: `SELECT DISTINCT host_address, port FROM system.clusters WHERE cluster = ${str(l.cluster)}`,
    format: 'JSONEachRow',
  });
  const hosts = (await rs.json<{ host_address: string; port: number | string }>()).map((h) => `${h.host_address}:${h.port}`);
  if (hosts.length === 0) throw new Error(`ClickHouse cluster ${l.cluster} is not defined on the server at CLICKHOUSE_URL`);
  return `remote(${str(hosts.join(','))}, system, mutations)`;
}

/** Mutations of these (storage) tables not yet done; 0: every one finished. */
export async function mutationsPending(
  ch: ClickHouseClient,
  l: ClickHouseLayout,
  database: string,
  tables: readonly string[],
): Promise<number> {
  if (tables.length === 0) return 0;
  const rs = await ch.query({
    query:
      `SELECT count() AS n FROM ${await mutationsSource(ch, l)} WHERE database = ${str(database)} ` +
      `AND table IN (${tables.map(str).join(', ')}) AND is_done = 0`,
    format: 'JSONEachRow',
    ...(l.cluster ? { clickhouse_settings: { skip_unavailable_shards: 1 } } : {}),
  });
  return Number((await rs.json<{ n: string | number }>())[0]?.n ?? 0);
}
