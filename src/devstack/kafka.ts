// Kafka: an Apache Kafka 3.9 broker (KRaft, single node) from Maven Central. The jars are resolved by
// devstack/kafka/pom.xml into devstack/kafka/lib (git-ignored); storage is formatted on first start;
// the broker runs detached with its log in <stack>/kafka/logs. Topics are created from the settings.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromKafka, ensureTopics } from '../infra/kafka/fromKafka';
import { waitFor } from '../shared/lifecycle';
import type { StackContext, StackService } from './service';
import { aptInstall, readPid, alive, run, spawnDetached, stopPid, tcpAnswers, which } from './system';

export function kafkaService(ctx: StackContext): StackService {
  const s = ctx.settings;
  const [host, portText] = s.kafkaBrokers[0]!.split(':') as [string, string];
  const port = Number(portText);
  const isLocal = ['127.0.0.1', 'localhost'].includes(host);
  const home = join(ctx.dir, 'kafka');
  const pidFile = join(home, 'kafka.pid');
  const pomDir = join(ctx.root, 'devstack', 'kafka');
  const lib = join(pomDir, 'lib');

  async function brokerReady(): Promise<boolean> {
    if (!(await tcpAnswers(host, port))) return false;
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

  function ensureJars(): void {
    if (existsSync(lib) && readdirSync(lib).some((f) => f.startsWith('kafka_2.13-'))) return;
    if (!which('java')) aptInstall(['openjdk-17-jre-headless'], ctx.log);
    if (!which('mvn')) aptInstall(['maven'], ctx.log);
    ctx.log('resolving the Kafka broker from Maven Central (devstack/kafka/pom.xml)');
    run('mvn', ['-q', '-B', '-f', join(pomDir, 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${lib}`, '-DincludeScope=runtime']);
  }

  function writeConfig(): string {
    const dataDir = join(home, 'data');
    mkdirSync(dataDir, { recursive: true });
    const file = join(home, 'server.properties');
    const controllerPort = port + 1;
    writeFileSync(
      file,
      [
        '# Written by the Tidemark stack manager (src/devstack/kafka.ts); edits are overwritten.',
        'process.roles=broker,controller',
        'node.id=1',
        `controller.quorum.voters=1@${host}:${controllerPort}`,
        `listeners=PLAINTEXT://${host}:${port},CONTROLLER://${host}:${controllerPort}`,
        `advertised.listeners=PLAINTEXT://${host}:${port}`,
        'controller.listener.names=CONTROLLER',
        'inter.broker.listener.name=PLAINTEXT',
        'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
        `log.dirs=${dataDir}`,
        `num.partitions=${s.kafkaPartitions}`,
        'auto.create.topics.enable=false',
        'offsets.topic.replication.factor=1',
        'offsets.topic.num.partitions=10',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        'group.initial.rebalance.delay.ms=0',
        'log.retention.hours=168',
        'log.segment.bytes=104857600',
        'delete.topic.enable=true',
        '',
      ].join('\n'),
    );
    return file;
  }

  function java(mainClass: string, args: string[], detached: boolean): void {
    const jvm = ['-Xms256m', '-Xmx1g', '-XX:+UseG1GC', `-Dlog4j.configuration=file:${join(pomDir, 'log4j.properties')}`, `-Dkafka.logs.dir=${join(home, 'logs')}`, '-cp', `${lib}/*`, mainClass, ...args];
    if (detached) spawnDetached('java', jvm, { logFile: join(home, 'logs', 'stdout.log'), pidFile });
    else run('java', jvm);
  }

  return {
    name: 'kafka',
    address: `${host}:${port}`,
    check: brokerReady,
    async up() {
      if (!(await brokerReady())) {
        if (!isLocal) throw new Error(`Kafka at ${host}:${port} does not answer and is not local; start it or fix KAFKA_BROKERS`);
        const pid = readPid(pidFile);
        if (!pid || !alive(pid)) {
          ensureJars();
          const config = writeConfig();
          if (!existsSync(join(home, 'data', 'meta.properties'))) {
            const clusterId = randomBytes(16).toString('base64url');
            ctx.log(`formatting Kafka storage (cluster ${clusterId})`);
            java('kafka.tools.StorageTool', ['format', '-t', clusterId, '-c', config, '--ignore-formatted'], false);
          }
          ctx.log('starting Kafka');
          java('kafka.Kafka', [config], true);
        }
        await waitFor(brokerReady, { timeoutMs: 120000, intervalMs: 500, what: `Kafka at ${host}:${port} (log: ${join(home, 'logs')})` });
      }
      const kafka = fromKafka(s, '-stack');
      await ensureTopics(kafka, s);
    },
    async down() {
      const pid = readPid(pidFile);
      if (!pid || !alive(pid)) return (await tcpAnswers(host, port)) ? 'not-ours' : 'not-running';
      await stopPid(pidFile, 30000);
      return 'stopped';
    },
  };
}
