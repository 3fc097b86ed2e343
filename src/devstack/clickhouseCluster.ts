// A local 3-server ClickHouse cluster for tests of sharded and replicated tables: cluster `tidemark`,
// shard 1 = s1r1, shard 2 = s2r1 + s2r2, on Debian's clickhouse-server (18.16) with ZooKeeper from
// Maven Central. Each server is the single server's setup (src/devstack/clickhouse.ts: our config.xml
// and users.xml, data under the stack folder) plus config.d/cluster.xml from devstack/clickhouse-cluster.
// Layout: <stack>/clickhouse-cluster/{zookeeper,s1r1,s2r1,s2r2}/. `up` is idempotent and serialised
// across processes (a lock folder), so every suite that needs the cluster may call it.
import { join, resolve } from 'node:path';
import { rmSync } from 'node:fs';
import { fromClickHouse, type ClickHouseClient } from '../infra/clickhouse/fromClickHouse';
import { waitFor } from '../shared/lifecycle';
import { renderTemplate, spawnClickHouseServer } from './clickhouse';
import { alive, livePid, stopPid } from './pidFile';
import { withLock } from './system';
import { zookeeperServer } from './zookeeper';

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

export interface ClickHouseClusterStack {
  cluster: string;
  nodes: ClickHouseClusterNode[];
  /** HTTP URL of s1r1: what the application connects to. */
  entryUrl: string;
  /** host:port of the cluster's ZooKeeper. */
  zookeeper: string;
  /** Starts ZooKeeper and every server that does not answer; waits until ON CLUSTER DDL round-trips. */
  up(): Promise<void>;
  /** Stops the servers and ZooKeeper this stack manager started (pid files). */
  down(): Promise<void>;
  /** SIGKILLs one server and waits until it no longer answers. */
  kill(node: string): Promise<void>;
  /** Starts that server again (same data and ports) and waits until it answers. */
  start(node: string): Promise<void>;
  /** Whether ZooKeeper and each server answer (for `stack:cluster -- status`). */
  status(): Promise<{ name: string; address: string; answers: boolean }[]>;
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

export function clickhouseClusterStack(o: {
  stackDir: string;
  root: string;
  log: (line: string) => void;
  basePort?: number;
  zookeeperPort?: number;
}): ClickHouseClusterStack {
  const base = o.basePort ?? 8130;
  const home = join(resolve(o.root, o.stackDir), 'clickhouse-cluster');
  const zk = zookeeperServer({ home: join(home, 'zookeeper'), root: o.root, port: o.zookeeperPort ?? 2191, log: o.log });
  const nodes: ClickHouseClusterNode[] = NODES.map((n, i) => ({ ...n, httpUrl: `http://127.0.0.1:${base + i}`, tcpPort: base + i + 877 }));
  const nodeHome = (n: ClickHouseClusterNode) => join(home, n.name);
  const pidFile = (n: ClickHouseClusterNode) => join(nodeHome(n), 'clickhouse.pid');
  const httpPort = (n: ClickHouseClusterNode) => Number(new URL(n.httpUrl).port);

  function node(name: string): ClickHouseClusterNode {
    const n = nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no node ${name} in the local cluster (${nodes.map((x) => x.name).join(', ')})`);
    return n;
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

  const answers = (n: ClickHouseClusterNode) =>
    select<{ ok: number }>(n, 'SELECT 1 AS ok').then(
      (r) => Number(r?.ok) === 1,
      () => false,
    );

  /** A server answering on a node's port must be that node of this cluster (not another checkout's or config's). */
  async function checkIdentity(n: ClickHouseClusterNode): Promise<void> {
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

  function spawnIfStopped(n: ClickHouseClusterNode): void {
    if (livePid(pidFile(n))) return; // ours, still starting
    const port = (x: ClickHouseClusterNode) => String(x.tcpPort);
    const vars = {
      SHARD: String(n.shard).padStart(2, '0'),
      REPLICA: n.name,
      INTERSERVER_PORT: String(httpPort(n) + 1000),
      ZOOKEEPER_PORT: zk.address.split(':')[1]!,
      S1R1_PORT: port(nodes[0]!),
      S2R1_PORT: port(nodes[1]!),
      S2R2_PORT: port(nodes[2]!),
    };
    const cluster = renderTemplate(join(o.root, 'devstack', 'clickhouse-cluster', 'cluster.xml'), vars);
    const common = { root: o.root, home: nodeHome(n), httpPort: httpPort(n), listenHost: '127.0.0.1', log: o.log };
    spawnClickHouseServer({ ...common, pidFile: pidFile(n), name: n.name, configD: { 'cluster.xml': cluster } });
  }

  const answering = (n: ClickHouseClusterNode) =>
    waitFor(() => answers(n), {
      timeoutMs: 60000,
      intervalMs: 200,
      what: `ClickHouse ${n.name} at ${n.httpUrl} (log: ${nodeHome(n)}/log)`,
    });

  /** Distributed DDL works only when ZooKeeper, every DDL worker and host identification do. */
  async function ddlRoundTrip(): Promise<void> {
    const ch = clusterNodeClient(nodes[0]!.httpUrl, 90000);
    try {
      await clusterDdl(ch, `CREATE DATABASE IF NOT EXISTS tidemark_cluster_probe ON CLUSTER ${CLICKHOUSE_CLUSTER}`);
      await clusterDdl(ch, `DROP DATABASE IF EXISTS tidemark_cluster_probe ON CLUSTER ${CLICKHOUSE_CLUSTER}`);
    } finally {
      await ch.close();
    }
  }

  return {
    cluster: CLICKHOUSE_CLUSTER,
    nodes,
    entryUrl: nodes[0]!.httpUrl,
    zookeeper: zk.address,
    async up() {
      await withLock(join(home, 'up.lock'), async () => {
        // ZooKeeper first, serving before any server starts: an 18.16 server whose first ZooKeeper
        // connection failed (started beside a JVM still booting) segfaults in its first ON CLUSTER DDL.
        await zk.start();
        await zk.ready();
        const down = (await Promise.all(nodes.map(async (n) => ((await answers(n)) ? [] : [n])))).flat();
        for (const n of down) spawnIfStopped(n);
        await Promise.all(down.map(answering));
        await Promise.all(nodes.map(checkIdentity));
        await ddlRoundTrip();
      });
    },
    async down() {
      await Promise.all(nodes.map(async (n) => (await stopPid(pidFile(n), 30000)) && o.log(`stopped ClickHouse ${n.name}`)));
      if ((await zk.down()) === 'stopped') o.log('stopped ZooKeeper');
    },
    async kill(name) {
      const n = node(name);
      const pid = livePid(pidFile(n));
      if (!pid) throw new Error(`ClickHouse ${n.name} is not running under this stack manager`);
      process.kill(pid, 'SIGKILL');
      await waitFor(async () => !alive(pid) && !(await answers(n)), {
        timeoutMs: 15000,
        intervalMs: 50,
        what: `ClickHouse ${n.name} to die`,
      });
      rmSync(pidFile(n), { force: true });
    },
    async start(name) {
      const n = node(name);
      if (await answers(n)) return;
      await zk.start(); // a no-op when it serves; a server must never start before it (see up)
      await zk.ready();
      spawnIfStopped(n);
      await answering(n);
    },
    async status() {
      const zkUp = { name: 'zookeeper', address: zk.address, answers: await zk.answers() };
      const servers = await Promise.all(nodes.map(async (n) => ({ name: n.name, address: n.httpUrl, answers: await answers(n) })));
      return [zkUp, ...servers];
    },
  };
}
