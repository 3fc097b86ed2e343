// A private single-node Kafka (the stack manager's 3.9 jars and launcher, src/devstack/kafkaBroker.ts)
// whose client listeners are all encrypted with the test PKI's server certificate:
//   ssl      SSL, no client authentication
//   saslSsl  SASL_SSL with SCRAM-SHA-256 and SCRAM-SHA-512 (user created at storage format, --add-scram)
//   mtls     SSL that requires a client certificate signed by the test CA
//   saslPlaintext  SASL_PLAINTEXT with SCRAM-SHA-256 and SCRAM-SHA-512: a login without TLS
// The controller and the broker's own inter-broker listener stay plaintext on loopback. Free ports,
// its own folder in the temp directory; stop() ends the JVM and removes the folder.
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { loadSettings } from '../../../src/config/settings';
import { java, kafkaJars, nodePidFile, type NodeSpec } from '../../../src/devstack/kafkaBroker';
import type { StackContext } from '../../../src/devstack/service';
import { repoRoot } from '../../../src/devstack/stack';
import { stopPid } from '../../../src/devstack/pidFile';
import { kafkaSecurity } from '../../../src/infra/tls';
import { waitFor } from '../../../src/shared/lifecycle';
import type { TestPki } from './certs';
import { freeEnginePort, privateDir } from './privateDir';

export const SCRAM_USER = { username: 'tidemark-app', password: 'scram-secret-0123' };

export interface TlsKafka {
  ssl: string;
  saslSsl: string;
  mtls: string;
  saslPlaintext: string;
  stop(): Promise<void>;
}

export async function startTlsKafka(pki: TestPki, log: (l: string) => void = () => undefined): Promise<TlsKafka> {
  const p = await freeEnginePort([1, 2, 3, 4, 5]);
  const home = privateDir('kafka');
  const host = '127.0.0.1';
  const node: NodeSpec = { id: 1, host, port: p, home };
  const ctx: StackContext = { settings: loadSettings({ ...process.env, TIDEMARK_ENV: 'test' }), dir: home, root: repoRoot, log };
  const at = (offset: number) => `${host}:${p + offset}`;
  const addr = { ssl: at(0), controller: at(1), saslSsl: at(2), internal: at(3), mtls: at(4), saslPlaintext: at(5) };
  const config = join(home, 'server.properties');
  mkdirSync(join(home, 'data'), { recursive: true });
  const scram = 'org.apache.kafka.common.security.scram.ScramLoginModule required;';
  writeFileSync(
    config,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@${addr.controller}`,
      `listeners=SSL://${addr.ssl},CONTROLLER://${addr.controller},SASL_SSL://${addr.saslSsl},INTERNAL://${addr.internal},` +
        `MTLS://${addr.mtls},SASL_PLAINTEXT://${addr.saslPlaintext}`,
      `advertised.listeners=SSL://${addr.ssl},SASL_SSL://${addr.saslSsl},INTERNAL://${addr.internal},MTLS://${addr.mtls},` +
        `SASL_PLAINTEXT://${addr.saslPlaintext}`,
      'controller.listener.names=CONTROLLER',
      'inter.broker.listener.name=INTERNAL',
      'listener.security.protocol.map=SSL:SSL,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL,INTERNAL:PLAINTEXT,MTLS:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT',
      'ssl.keystore.type=PKCS12',
      `ssl.keystore.location=${pki.serverP12}`,
      'ssl.keystore.password=changeit',
      'ssl.key.password=changeit',
      'ssl.truststore.type=PEM',
      `ssl.truststore.location=${pki.ca}`,
      'listener.name.mtls.ssl.client.auth=required',
      'sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512',
      `listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=${scram}`,
      `listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=${scram}`,
      `listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=${scram}`,
      `listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=${scram}`,
      `log.dirs=${join(home, 'data')}`,
      'num.partitions=1',
      'auto.create.topics.enable=false',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      '',
    ].join('\n'),
  );
  const lib = kafkaJars(ctx, '3.9');
  const user = `name=${SCRAM_USER.username},password=${SCRAM_USER.password}`;
  const users = ['SCRAM-SHA-256', 'SCRAM-SHA-512'].flatMap((m) => ['--add-scram', `${m}=[${user}]`]);
  const clusterId = randomBytes(16).toString('base64url');
  java(ctx, node, lib, '3.9', 'kafka.tools.StorageTool', ['format', `--cluster-id=${clusterId}`, '-c', config, ...users], false);
  java(ctx, node, lib, '3.9', 'kafka.Kafka', [config], true);
  const stop = async () => {
    await stopPid(nodePidFile(node), 15000);
    rmSync(home, { recursive: true, force: true });
  };
  try {
    // Served once an SSL client verified against the test CA gets the cluster's metadata.
    const security = kafkaSecurity(loadSettings({ TIDEMARK_ENV: 'test', KAFKA_SSL: 'verify', KAFKA_SSL_CA: pki.ca }));
    const options = { logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 2000 };
    const admin = new Kafka({ brokers: [addr.ssl], ...security, ...options }).admin();
    await waitFor(
      () =>
        admin
          .connect()
          .then(() => admin.describeCluster())
          .then(
            (c) => c.brokers.length === 1,
            () => false,
          ),
      { timeoutMs: 120000, intervalMs: 500, what: `the TLS Kafka broker (log: ${join(home, 'logs')})` },
    );
    await admin.disconnect();
  } catch (err) {
    await stop();
    throw err;
  }
  return { ssl: addr.ssl, saslSsl: addr.saslSsl, mtls: addr.mtls, saslPlaintext: addr.saslPlaintext, stop };
}
