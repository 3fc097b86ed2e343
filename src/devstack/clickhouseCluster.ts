// A local 3-server ClickHouse cluster for tests of sharded and replicated tables: cluster `tidemark`,
// shard 1 = s1r1, shard 2 = s2r1 + s2r2, on Debian's clickhouse-server (18.16) with ZooKeeper from
// Maven Central. Each server is the single server's setup (src/devstack/clickhouse.ts: our config.xml
// and users.xml, data under the stack folder) plus config.d/cluster.xml from devstack/clickhouse-cluster.
// Layout: <stack>/clickhouse-cluster/{zookeeper,s1r1,s2r1,s2r2}/. `up` is idempotent and serialised
// across processes (a lock folder), so every suite that needs the cluster may call it.
// The servers' layout and probes are in clickhouseClusterNodes.ts; here are the stack manager's steps.
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { waitFor } from '../shared/lifecycle';
import { renderTemplate, spawnClickHouseServer } from './clickhouse';
import {
  checkIdentity,
  CLICKHOUSE_CLUSTER,
  clusterLayout,
  ddlRoundTrip,
  nodeAnswers,
  type ClickHouseClusterNode,
  type ClusterLayout,
} from './clickhouseClusterNodes';
import { alive, livePid, stopPid } from './pidFile';
import { withLock } from './system';
import { zookeeperServer, type ZooKeeperServer } from './zookeeper';

export { CLICKHOUSE_CLUSTER, clusterDdl, clusterNodeClient, type ClickHouseClusterNode } from './clickhouseClusterNodes';

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
  /** Stops one server gracefully (SIGTERM, SIGKILL after 30 s) and waits until it no longer answers. */
  stop(node: string): Promise<void>;
  /** Starts that server again (same data and ports) and waits until it answers. */
  start(node: string): Promise<void>;
  /** Whether ZooKeeper and each server answer (for `stack:cluster -- status`). */
  status(): Promise<{ name: string; address: string; answers: boolean }[]>;
}

/** What every step works on: the servers' layout, their ZooKeeper, the checkout and the log. */
interface LocalCluster {
  layout: ClusterLayout;
  zk: ZooKeeperServer;
  root: string;
  log: (line: string) => void;
}

function spawnIfStopped(c: LocalCluster, n: ClickHouseClusterNode): void {
  const { layout } = c;
  if (livePid(layout.pidFile(n))) return; // ours, still starting
  const port = (x: ClickHouseClusterNode) => String(x.tcpPort);
  const vars = {
    SHARD: String(n.shard).padStart(2, '0'),
    REPLICA: n.name,
    INTERSERVER_PORT: String(layout.httpPort(n) + 1000),
    ZOOKEEPER_PORT: c.zk.address.split(':')[1]!,
    S1R1_PORT: port(layout.nodes[0]!),
    S2R1_PORT: port(layout.nodes[1]!),
    S2R2_PORT: port(layout.nodes[2]!),
  };
  const cluster = renderTemplate(join(c.root, 'devstack', 'clickhouse-cluster', 'cluster.xml'), vars);
  const common = { root: c.root, home: layout.nodeHome(n), httpPort: layout.httpPort(n), listenHost: '127.0.0.1', log: c.log };
  spawnClickHouseServer({ ...common, pidFile: layout.pidFile(n), name: n.name, configD: { 'cluster.xml': cluster } });
}

const answering = (c: LocalCluster, n: ClickHouseClusterNode) =>
  waitFor(() => nodeAnswers(n), {
    timeoutMs: 60000,
    intervalMs: 200,
    what: `ClickHouse ${n.name} at ${n.httpUrl} (log: ${c.layout.nodeHome(n)}/log)`,
  });

async function up(c: LocalCluster): Promise<void> {
  const { nodes } = c.layout;
  await withLock(join(c.layout.home, 'up.lock'), async () => {
    // ZooKeeper first, serving before any server starts: an 18.16 server whose first ZooKeeper
    // connection failed (started beside a JVM still booting) segfaults in its first ON CLUSTER DDL.
    await c.zk.start();
    await c.zk.ready();
    const down = (await Promise.all(nodes.map(async (n) => ((await nodeAnswers(n)) ? [] : [n])))).flat();
    for (const n of down) spawnIfStopped(c, n);
    await Promise.all(down.map((n) => answering(c, n)));
    await Promise.all(nodes.map(checkIdentity));
    await ddlRoundTrip(nodes[0]!);
  });
}

async function down(c: LocalCluster): Promise<void> {
  const stopped = async (n: ClickHouseClusterNode) => (await stopPid(c.layout.pidFile(n), 30000)) && c.log(`stopped ClickHouse ${n.name}`);
  await Promise.all(c.layout.nodes.map(stopped));
  if ((await c.zk.down()) === 'stopped') c.log('stopped ZooKeeper');
}

async function kill(c: LocalCluster, name: string): Promise<void> {
  const n = c.layout.node(name);
  const pid = livePid(c.layout.pidFile(n));
  if (!pid) throw new Error(`ClickHouse ${n.name} is not running under this stack manager`);
  process.kill(pid, 'SIGKILL');
  await waitFor(async () => !alive(pid) && !(await nodeAnswers(n)), {
    timeoutMs: 15000,
    intervalMs: 50,
    what: `ClickHouse ${n.name} to die`,
  });
  rmSync(c.layout.pidFile(n), { force: true });
}

async function stop(c: LocalCluster, name: string): Promise<void> {
  const n = c.layout.node(name);
  if (!(await stopPid(c.layout.pidFile(n), 30000))) throw new Error(`ClickHouse ${n.name} is not running under this stack manager`);
  await waitFor(async () => !(await nodeAnswers(n)), { timeoutMs: 15000, intervalMs: 50, what: `ClickHouse ${n.name} to stop answering` });
}

async function start(c: LocalCluster, name: string): Promise<void> {
  const n = c.layout.node(name);
  if (await nodeAnswers(n)) return;
  await c.zk.start(); // a no-op when it serves; a server must never start before it (see up)
  await c.zk.ready();
  spawnIfStopped(c, n);
  await answering(c, n);
}

async function status(c: LocalCluster): Promise<{ name: string; address: string; answers: boolean }[]> {
  const zkUp = { name: 'zookeeper', address: c.zk.address, answers: await c.zk.answers() };
  const servers = await Promise.all(c.layout.nodes.map(async (n) => ({ name: n.name, address: n.httpUrl, answers: await nodeAnswers(n) })));
  return [zkUp, ...servers];
}

export function clickhouseClusterStack(o: {
  stackDir: string;
  root: string;
  log: (line: string) => void;
  basePort?: number;
  zookeeperPort?: number;
}): ClickHouseClusterStack {
  const layout = clusterLayout(o);
  const zk = zookeeperServer({ home: join(layout.home, 'zookeeper'), root: o.root, port: o.zookeeperPort ?? 2191, log: o.log });
  const c: LocalCluster = { layout, zk, root: o.root, log: o.log };
  return {
    cluster: CLICKHOUSE_CLUSTER,
    nodes: layout.nodes,
    entryUrl: layout.nodes[0]!.httpUrl,
    zookeeper: zk.address,
    up: () => up(c),
    down: () => down(c),
    kill: (name) => kill(c, name),
    stop: (name) => stop(c, name),
    start: (name) => start(c, name),
    status: () => status(c),
  };
}
