// The servers of the local ClickHouse cluster (src/devstack/clickhouseCluster.ts) and what is asked of
// them: their ports and folders, a client to one of them, whether one answers and is the node it should
// be, and whether ON CLUSTER DDL round-trips. Apart from the stack manager's steps so those read short.
import { join, resolve } from 'node:path';
import { fromClickHouse, type ClickHouseClient } from '../infra/clickhouse/fromClickHouse';

export const CLICKHOUSE_CLUSTER = 'tidemark';
const NODES = [
  { name: 's1r1', shard: 1, replica: 1 },
  { name: 's2r1', shard: 2, replica: 1 },
  { name: 's2r2', shard: 2, replica: 2 },
] as const;
type NodeName = (typeof NODES)[number]['name'];

export interface ClickHouseClusterNode {
  name: NodeName;
  shard: number;
  replica: number;
  httpUrl: string;
  tcpPort: number;
}

/** A client to one server of the cluster (user `default`, no database), for probes and tests. */
export function clusterNodeClient(httpUrl: string, requestTimeoutMs = 30000): ClickHouseClient {
  const s = { clickhouseUrl: httpUrl, clickhouseUser: 'default', clickhousePassword: '', clickhouseDatabase: 'default' };
  return fromClickHouse(
    { ...s, clickhouseEngine: 'server', clickhouseEmbeddedPath: undefined, stackDir: '' },
    { database: null, requestTimeoutMs },
  );
}

/**
 * Runs ON CLUSTER DDL, failing when any host fails. The answer is a table of per-host results streamed as
 * hosts finish; wait_end_of_query makes the server buffer it, so a failure reported after other hosts'
 * rows still comes back as an HTTP error instead of text after a 200 that was already sent.
 */
export async function clusterDdl(ch: ClickHouseClient, query: string, timeoutS = 60): Promise<void> {
  await ch.command({ query, clickhouse_settings: { wait_end_of_query: 1, distributed_ddl_task_timeout: String(timeoutS) } });
}

/** Where each server of the cluster lives: <stack>/clickhouse-cluster/<node>/, HTTP ports from basePort. */
export interface ClusterLayout {
  home: string;
  nodes: ClickHouseClusterNode[];
  nodeHome(n: ClickHouseClusterNode): string;
  pidFile(n: ClickHouseClusterNode): string;
  httpPort(n: ClickHouseClusterNode): number;
  /** The node of that name; throws naming the nodes there are. */
  node(name: string): ClickHouseClusterNode;
}

export function clusterLayout(o: { stackDir: string; root: string; basePort?: number }): ClusterLayout {
  const base = o.basePort ?? 8130;
  const home = join(resolve(o.root, o.stackDir), 'clickhouse-cluster');
  const nodes: ClickHouseClusterNode[] = NODES.map((n, i) => ({ ...n, httpUrl: `http://127.0.0.1:${base + i}`, tcpPort: base + i + 877 }));
  const nodeHome = (n: ClickHouseClusterNode) => join(home, n.name);
  return {
    home,
    nodes,
    nodeHome,
    pidFile: (n) => join(nodeHome(n), 'clickhouse.pid'),
    httpPort: (n) => Number(new URL(n.httpUrl).port),
    node(name) {
      const n = nodes.find((x) => x.name === name);
      if (!n) throw new Error(`no node ${name} in the local cluster (${nodes.map((x) => x.name).join(', ')})`);
      return n;
    },
  };
}

async function select<T>(n: ClickHouseClusterNode, query: string, timeoutMs = 2000): Promise<T | undefined> {
  const ch = clusterNodeClient(n.httpUrl, timeoutMs);
  try {
    const rows = await (await ch.query({ query, format: 'JSONEachRow' })).json<T>();
    return rows[0];
  } finally {
    await ch.close();
  }
}

/** True when the server answers a query within 2 s. */
export const nodeAnswers = (n: ClickHouseClusterNode): Promise<boolean> =>
  select<{ ok: number }>(n, 'SELECT 1 AS ok').then(
    (r) => Number(r?.ok) === 1,
    () => false,
  );

/** A server answering on a node's port must be that node of this cluster (not another checkout's or config's). */
export async function checkIdentity(n: ClickHouseClusterNode): Promise<void> {
  const q =
    "SELECT (SELECT substitution FROM system.macros WHERE macro = 'replica') AS replica, " +
    `(SELECT count() FROM system.clusters WHERE cluster = '${CLICKHOUSE_CLUSTER}') AS hosts`;
  const r = await select<{ replica: string; hosts: string }>(n, q, 10000);
  if (r?.replica !== n.name || Number(r.hosts) !== 3) {
    throw new Error(
      `the ClickHouse at ${n.httpUrl} is not node ${n.name} of the local cluster (replica macro ${r?.replica ?? 'none'}, ` +
        `${r?.hosts ?? 0} hosts in cluster ${CLICKHOUSE_CLUSTER}); stop it or pick another basePort`,
    );
  }
}

/** Distributed DDL works only when ZooKeeper, every DDL worker and host identification do. */
export async function ddlRoundTrip(entry: ClickHouseClusterNode): Promise<void> {
  const ch = clusterNodeClient(entry.httpUrl, 90000);
  try {
    await clusterDdl(ch, `CREATE DATABASE IF NOT EXISTS tidemark_cluster_probe ON CLUSTER ${CLICKHOUSE_CLUSTER}`);
    await clusterDdl(ch, `DROP DATABASE IF EXISTS tidemark_cluster_probe ON CLUSTER ${CLICKHOUSE_CLUSTER}`);
  } finally {
    await ch.close();
  }
}
