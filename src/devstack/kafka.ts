// Kafka: Apache Kafka KRaft from Maven Central (KAFKA_VERSION: the 3.9 line, or 4 for the newest 4.x).
// KAFKA_BROKERS decides the shape: one address runs one combined broker+controller node exactly as
// always (<stack>/kafka/{data,logs,server.properties,kafka.pid}); N local addresses run N combined
// nodes (node.id 1..N, each in <stack>/kafka/node-<i>, all of them voters, controller port = broker
// port + 1) whose internal topics replicate min(3, N) times. Topics are created from the settings.
// The nodes and their probes are in kafkaNodes.ts; here are the stack manager's steps.
import { join } from 'node:path';
import { fromKafka, ensureTopics } from '../infra/kafka/fromKafka';
import { waitFor } from '../shared/lifecycle';
import { KAFKA_LINES, nodePidFile, runningPid, type KafkaLine, type NodeSpec } from './kafkaBroker';
import { clusterId, clusterServes, localKafka, nodeServes, startIfStopped, type LocalKafka } from './kafkaNodes';
import type { StackContext, StackService } from './service';
import { alive, stopPid } from './pidFile';
import { tcpAnswers } from './system';

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

const what = (node: NodeSpec) => `Kafka node ${node.id} at ${node.host}:${node.port} (log: ${join(node.home, 'logs')})`;

function nodeControl(k: LocalKafka, node: NodeSpec): KafkaNodeControl {
  return {
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
      startIfStopped(k, node, clusterId(k));
      await waitFor(() => nodeServes(k, node), { timeoutMs: 120000, intervalMs: 300, what: what(node) });
    },
  };
}

/** Starts the local nodes that do not serve and waits for them, then creates the topics of the settings. */
async function up(k: LocalKafka): Promise<void> {
  if (!(await clusterServes(k))) {
    if (!k.isLocal) throw new Error(`Kafka at ${k.address} does not answer and is not local; start it or fix KAFKA_BROKERS`);
    const id = clusterId(k);
    for (const node of k.nodes) if (!(await nodeServes(k, node))) startIfStopped(k, node, id);
    await Promise.all(k.nodes.map((node) => waitFor(() => nodeServes(k, node), { timeoutMs: 120000, intervalMs: 500, what: what(node) })));
  }
  // The process topics only: each domain's events topic is created by the roles' start (migrateAll),
  // which knows the registered domains. It also alters the dead-letter topic created here to the
  // compacted configs when a domain has an erasure (ensureTopics' compactedDomains).
  await ensureTopics(fromKafka(k.settings, '-stack'), k.settings, {});
}

async function down(k: LocalKafka): Promise<'stopped' | 'not-ours' | 'not-running'> {
  const ours = k.nodes.filter((node) => runningPid(node));
  if (!ours.length) return (await tcpAnswers(k.nodes[0]!.host, k.nodes[0]!.port)) ? 'not-ours' : 'not-running';
  await Promise.all(ours.map((node) => stopPid(nodePidFile(node), 30000)));
  return 'stopped';
}

export function kafkaService(ctx: StackContext): KafkaStackService {
  const k = localKafka(ctx);
  return {
    name: 'kafka',
    address: k.address,
    line: k.line,
    release: KAFKA_LINES[k.line].release,
    nodes: k.nodes.map((node) => nodeControl(k, node)),
    check: () => clusterServes(k),
    up: () => up(k),
    down: () => down(k),
  };
}
