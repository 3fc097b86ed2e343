// One local Kafka KRaft node (broker and controller in one JVM) of a version line: its jars from Maven
// Central, its server.properties, storage format and process. src/devstack/kafka.ts composes one node
// (today's layout) or N of them into a cluster. Nothing here talks the Kafka protocol.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StackContext } from './service';
import { livePid } from './pidFile';
import { mavenJars, run, spawnDetached } from './system';

/**
 * The broker version lines the stack manager can run (KAFKA_VERSION). 3.9 keeps the folder it always
 * had (devstack/kafka/lib, <stack>/kafka); 4 resolves the newest 4.x release through its own pom (Kafka 4
 * logs through log4j2) into lib-<release>, with data under <stack>/kafka-4 so neither line ever opens
 * storage the other formatted.
 */
export const KAFKA_LINES = {
  '3.9': { release: '3.9.1', pom: 'pom.xml', lib: 'lib', stackFolder: 'kafka', logConfig: 'log4j.properties' },
  '4': { release: '4.4.0', pom: 'pom-4.xml', lib: 'lib-4.4.0', stackFolder: 'kafka-4', logConfig: 'log4j2.properties' },
} as const;
export type KafkaLine = keyof typeof KAFKA_LINES;

export interface NodeSpec {
  id: number;
  host: string;
  port: number;
  /** Folder of this node: server.properties, data/, logs/, kafka.pid. */
  home: string;
}

export interface ClusterShape {
  nodes: NodeSpec[];
  partitions: number;
}

export function kafkaJars(ctx: StackContext, line: KafkaLine): string {
  const v = KAFKA_LINES[line];
  const pomDir = join(ctx.root, 'devstack', 'kafka');
  return mavenJars(
    {
      pom: join(pomDir, v.pom),
      lib: join(pomDir, v.lib),
      marker: `kafka_2.13-${v.release}.jar`,
      properties: { 'kafka.version': v.release },
      what: `the Kafka ${v.release} broker (devstack/kafka/${v.pom})`,
    },
    ctx.log,
  );
}

/** server.properties of one node; every node of a cluster votes (controller port = broker port + 1). */
export function writeNodeConfig(node: NodeSpec, shape: ClusterShape): string {
  const n = shape.nodes.length;
  const dataDir = join(node.home, 'data');
  mkdirSync(dataDir, { recursive: true });
  const file = join(node.home, 'server.properties');
  const voters = shape.nodes.map((x) => `${x.id}@${x.host}:${x.port + 1}`).join(',');
  writeFileSync(
    file,
    [
      '# Written by the Tidemark stack manager (src/devstack/kafkaBroker.ts); edits are overwritten.',
      'process.roles=broker,controller',
      `node.id=${node.id}`,
      `controller.quorum.voters=${voters}`,
      `listeners=PLAINTEXT://${node.host}:${node.port},CONTROLLER://${node.host}:${node.port + 1}`,
      `advertised.listeners=PLAINTEXT://${node.host}:${node.port}`,
      'controller.listener.names=CONTROLLER',
      'inter.broker.listener.name=PLAINTEXT',
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      `log.dirs=${dataDir}`,
      `num.partitions=${shape.partitions}`,
      'auto.create.topics.enable=false',
      `offsets.topic.replication.factor=${Math.min(3, n)}`,
      'offsets.topic.num.partitions=10',
      `transaction.state.log.replication.factor=${Math.min(3, n)}`,
      `transaction.state.log.min.isr=${Math.min(2, n)}`,
      'group.initial.rebalance.delay.ms=0',
      'log.retention.hours=168',
      'log.segment.bytes=104857600',
      'delete.topic.enable=true',
      '',
    ].join('\n'),
  );
  return file;
}

export function nodePidFile(node: NodeSpec): string {
  return join(node.home, 'kafka.pid');
}

/** The pid of this node's JVM when one we started is alive. */
export function runningPid(node: NodeSpec): number | undefined {
  return livePid(nodePidFile(node));
}

/** The version line a running JVM of ours was started from (its classpath names the lib folder). */
export function lineOfPid(pid: number): KafkaLine | undefined {
  const file = `/proc/${pid}/cmdline`;
  if (!existsSync(file)) return undefined;
  const cmd = readFileSync(file, 'utf8');
  return (Object.keys(KAFKA_LINES) as KafkaLine[]).find((l) => cmd.includes(`/devstack/kafka/${KAFKA_LINES[l].lib}/*`));
}

/** Runs a Kafka main class of a line for a node (its logs and pid file in the node's folder): the broker, or a tool. */
export function java(
  ctx: StackContext,
  node: NodeSpec,
  lib: string,
  line: KafkaLine,
  mainClass: string,
  args: string[],
  detached: boolean,
): void {
  const logs = join(node.home, 'logs');
  const logConfig = join(ctx.root, 'devstack', 'kafka', KAFKA_LINES[line].logConfig);
  const logging = line === '3.9' ? `-Dlog4j.configuration=file:${logConfig}` : `-Dlog4j2.configurationFile=${logConfig}`;
  const jvm = ['-Xms256m', '-Xmx1g', '-XX:+UseG1GC', logging, `-Dkafka.logs.dir=${logs}`, '-cp', `${lib}/*`, mainClass, ...args];
  if (detached) spawnDetached('java', jvm, { logFile: join(logs, 'stdout.log'), pidFile: nodePidFile(node) });
  else run('java', jvm);
}

/** Formats the node's storage on first start (with the cluster's id) and starts its JVM detached. */
export function startNode(ctx: StackContext, line: KafkaLine, node: NodeSpec, shape: ClusterShape, clusterId: string): void {
  const lib = kafkaJars(ctx, line);
  const config = writeNodeConfig(node, shape);
  if (!existsSync(join(node.home, 'data', 'meta.properties'))) {
    ctx.log(`formatting Kafka storage of node ${node.id} (cluster ${clusterId})`);
    // `--cluster-id=<id>` in one argument: a random id may begin with '-', which as a separate argument
    // the tool's parser takes for an option (one id in 64; seen in CI).
    java(
      ctx,
      node,
      lib,
      line,
      'kafka.tools.StorageTool',
      ['format', `--cluster-id=${clusterId}`, '-c', config, '--ignore-formatted'],
      false,
    );
  }
  ctx.log(
    shape.nodes.length === 1
      ? `starting Kafka ${KAFKA_LINES[line].release}`
      : `starting Kafka ${KAFKA_LINES[line].release} node ${node.id}`,
  );
  java(ctx, node, lib, line, 'kafka.Kafka', [config], true);
}
