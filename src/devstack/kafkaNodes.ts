// The nodes of the local Kafka (src/devstack/kafka.ts) as KAFKA_BROKERS describes them, and what the
// stack manager asks of them: whether one serves, whether the cluster does, the cluster id they share
// and starting one that is not running. Apart from the stack manager's steps so those read short.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { fromKafka } from '../infra/kafka/fromKafka';
import { kafkaSecurity } from '../infra/tls';
import { KAFKA_LINES, lineOfPid, runningPid, startNode, type ClusterShape, type KafkaLine, type NodeSpec } from './kafkaBroker';
import type { Settings } from '../config/settings';
import type { StackContext } from './service';
import { listens } from './system';

/** The Kafka of KAFKA_BROKERS and KAFKA_VERSION: where its nodes listen and live. */
export interface LocalKafka {
  ctx: StackContext;
  /** ctx.settings as they were when the service was made. */
  settings: Settings;
  line: KafkaLine;
  /** <stack>/kafka (or the line's folder): the single node's folder, or the parent of node-<i>. */
  home: string;
  single: boolean;
  /** Every address is on this machine, so the stack manager may run the nodes. */
  isLocal: boolean;
  nodes: NodeSpec[];
  shape: ClusterShape;
  /** KAFKA_BROKERS as one comma-separated list. */
  address: string;
}

export function localKafka(ctx: StackContext): LocalKafka {
  const s = ctx.settings;
  const addresses = s.kafkaBrokers.map((a) => {
    const [host, port] = a.split(':') as [string, string];
    return { host, port: Number(port) };
  });
  const isLocal = addresses.every((a) => ['127.0.0.1', 'localhost'].includes(a.host));
  const home = join(ctx.dir, KAFKA_LINES[s.kafkaVersion].stackFolder);
  const single = addresses.length === 1;
  const nodes: NodeSpec[] = addresses.map((a, i) => ({
    id: i + 1,
    host: a.host,
    port: a.port,
    home: single ? home : join(home, `node-${i + 1}`),
  }));
  checkPorts(nodes);
  const shape: ClusterShape = { nodes, partitions: s.kafkaPartitions };
  return { ctx, settings: s, line: s.kafkaVersion, home, single, isLocal, nodes, shape, address: s.kafkaBrokers.join(',') };
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

/** True when this node answers on its own address and the cluster metadata it serves lists it. */
export async function nodeServes(k: LocalKafka, node: NodeSpec): Promise<boolean> {
  if (!(await listens(node.host, node.port))) return false;
  const s = k.settings;
  const brokers = [`${node.host}:${node.port}`];
  const options = { connectionTimeout: 3000, requestTimeout: 5000, logLevel: logLevel.NOTHING, retry: { retries: 0 } };
  const admin = new Kafka({ clientId: `${s.kafkaClientId}-stack`, brokers, ...kafkaSecurity(s), ...options }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return k.single || cluster.brokers.some((b) => b.nodeId === node.id);
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Local: every node serves. Elsewhere (brokers we do not run): the bootstrap list answers. */
export async function clusterServes(k: LocalKafka): Promise<boolean> {
  if (k.isLocal) return (await Promise.all(k.nodes.map((node) => nodeServes(k, node)))).every(Boolean);
  const admin = fromKafka(k.settings, '-stack').admin();
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
export function clusterId(k: LocalKafka): string {
  if (k.single) return randomBytes(16).toString('base64url');
  const file = join(k.home, 'cluster.id');
  if (!existsSync(file)) {
    mkdirSync(k.home, { recursive: true });
    writeFileSync(file, randomBytes(16).toString('base64url'));
  }
  return readFileSync(file, 'utf8').trim();
}

/** Starts the node unless ours runs; one running another Kafka line than KAFKA_VERSION is an error. */
export function startIfStopped(k: LocalKafka, node: NodeSpec, id: string): void {
  const pid = runningPid(node);
  if (pid) {
    const runs = lineOfPid(pid);
    if (runs && runs !== k.line) {
      throw new Error(
        `Kafka node ${node.id} at ${node.host}:${node.port} runs the ${runs} line but KAFKA_VERSION=${k.line}; run npm run stack -- down first`,
      );
    }
    return;
  }
  startNode(k.ctx, k.line, node, k.shape, id);
}
