// Kafka: Apache Kafka KRaft from Maven Central (KAFKA_VERSION: the 3.9 line, or 4 for the newest 4.x).
// KAFKA_BROKERS decides the shape: one address runs one combined broker+controller node exactly as
// always (<stack>/kafka/{data,logs,server.properties,kafka.pid}); N local addresses run N combined
// nodes (node.id 1..N, each in <stack>/kafka/node-<i>, all of them voters, controller port = broker
// port + 1) whose internal topics replicate min(3, N) times. Topics are created from the settings.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { fromKafka, ensureTopics } from '../infra/kafka/fromKafka';
import { kafkaSecurity } from '../infra/tls';
import { waitFor } from '../shared/lifecycle';
import {
  KAFKA_LINES,
  lineOfPid,
  nodePidFile,
  runningPid,
  startNode,
  type ClusterShape,
  type KafkaLine,
  type NodeSpec,
} from './kafkaBroker';
import type { StackContext, StackService } from './service';
import { alive, stopPid } from './pidFile';
import { listens, tcpAnswers } from './system';

/** One node of the local Kafka, for tests that stop and start it (the fault suite). */
export interface KafkaNodeControl {
  id: number;
  address: string;
  /** 'graceful' is SIGTERM and a wait for exit (controlled shutdown), 'kill' is SIGKILL. */
  stop(mode: 'graceful' | 'kill'): Promise<void>;
  /** Starts the node if it is not running (same data folder and ports) and waits until it serves again. */
  start(): Promise<void>;
}

export interface KafkaStackService extends StackService {
  /** The version line KAFKA_VERSION selects and the release the stack manager runs for it. */
  line: KafkaLine;
  release: string;
  nodes: KafkaNodeControl[];
}

export function kafkaService(ctx: StackContext): KafkaStackService {
  const s = ctx.settings;
  const line = s.kafkaVersion;
  const addresses = s.kafkaBrokers.map((a) => {
    const [host, port] = a.split(':') as [string, string];
    return { host, port: Number(port) };
  });
  const isLocal = addresses.every((a) => ['127.0.0.1', 'localhost'].includes(a.host));
  const home = join(ctx.dir, KAFKA_LINES[line].stackFolder);
  const single = addresses.length === 1;
  const nodes: NodeSpec[] = addresses.map((a, i) => ({
    id: i + 1,
    host: a.host,
    port: a.port,
    home: single ? home : join(home, `node-${i + 1}`),
  }));
  const shape: ClusterShape = { nodes, partitions: s.kafkaPartitions };
  const address = s.kafkaBrokers.join(',');
  checkPorts(nodes);

  /** True when this node answers on its own address and the cluster metadata it serves lists it. */
  async function nodeServes(node: NodeSpec): Promise<boolean> {
    if (!(await listens(node.host, node.port))) return false;
    const brokers = [`${node.host}:${node.port}`];
    const options = { connectionTimeout: 3000, requestTimeout: 5000, logLevel: logLevel.NOTHING, retry: { retries: 0 } };
    const admin = new Kafka({ clientId: `${s.kafkaClientId}-stack`, brokers, ...kafkaSecurity(s), ...options }).admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      return single || cluster.brokers.some((b) => b.nodeId === node.id);
    } catch {
      return false;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /** Local: every node serves. Elsewhere (brokers we do not run): the bootstrap list answers. */
  async function clusterServes(): Promise<boolean> {
    if (isLocal) return (await Promise.all(nodes.map(nodeServes))).every(Boolean);
    const admin = fromKafka(s, '-stack').admin();
    try {
      await admin.connect();
      await admin.describeCluster();
      return true;
    } catch {
      return false;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /** One id for every node of a cluster, kept beside them; a single node makes a fresh one as it always did. */
  function clusterId(): string {
    if (single) return randomBytes(16).toString('base64url');
    const file = join(home, 'cluster.id');
    if (!existsSync(file)) {
      mkdirSync(home, { recursive: true });
      writeFileSync(file, randomBytes(16).toString('base64url'));
    }
    return readFileSync(file, 'utf8').trim();
  }

  function startIfStopped(node: NodeSpec, id: string): void {
    const pid = runningPid(node);
    if (pid) {
      const runs = lineOfPid(pid);
      if (runs && runs !== line) {
        throw new Error(
          `Kafka node ${node.id} at ${node.host}:${node.port} runs the ${runs} line but KAFKA_VERSION=${line}; run npm run stack -- down first`,
        );
      }
      return;
    }
    startNode(ctx, line, node, shape, id);
  }

  const what = (node: NodeSpec) => `Kafka node ${node.id} at ${node.host}:${node.port} (log: ${join(node.home, 'logs')})`;

  const controls: KafkaNodeControl[] = nodes.map((node) => ({
    id: node.id,
    address: `${node.host}:${node.port}`,
    async stop(mode) {
      if (mode === 'graceful') return void (await stopPid(nodePidFile(node), 30000));
      const pid = runningPid(node);
      if (!pid) throw new Error(`Kafka node ${node.id} is not running under this stack manager`);
      process.kill(pid, 'SIGKILL');
      await waitFor(() => !alive(pid), { timeoutMs: 15000, intervalMs: 50, what: `Kafka node ${node.id} to die` });
      await stopPid(nodePidFile(node), 0);
    },
    async start() {
      startIfStopped(node, clusterId());
      await waitFor(() => nodeServes(node), { timeoutMs: 120000, intervalMs: 300, what: what(node) });
    },
  }));

  return {
    name: 'kafka',
    address,
    line,
    release: KAFKA_LINES[line].release,
    nodes: controls,
    check: clusterServes,
    async up() {
      if (!(await clusterServes())) {
        if (!isLocal) throw new Error(`Kafka at ${address} does not answer and is not local; start it or fix KAFKA_BROKERS`);
        const id = clusterId();
        for (const node of nodes) if (!(await nodeServes(node))) startIfStopped(node, id);
        await Promise.all(nodes.map((node) => waitFor(() => nodeServes(node), { timeoutMs: 120000, intervalMs: 500, what: what(node) })));
      }
      await ensureTopics(fromKafka(s, '-stack'), s);
    },
    async down() {
      const ours = nodes.filter((node) => runningPid(node));
      if (!ours.length) return (await tcpAnswers(nodes[0]!.host, nodes[0]!.port)) ? 'not-ours' : 'not-running';
      await Promise.all(ours.map((node) => stopPid(nodePidFile(node), 30000)));
      return 'stopped';
    },
  };
}

/** Each node needs its broker port and the next one (controller); two nodes must not share either. */
function checkPorts(nodes: NodeSpec[]): void {
  const taken = new Map<string, number>();
  for (const n of nodes) {
    for (const p of [n.port, n.port + 1]) {
      const key = `${n.host}:${p}`;
      const other = taken.get(key);
      if (other !== undefined) {
        throw new Error(
          `KAFKA_BROKERS: nodes ${other} and ${n.id} both need ${key} (each node uses its port and the next one for its controller)`,
        );
      }
      taken.set(key, n.id);
    }
  }
}
