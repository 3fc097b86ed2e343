// A 3-node KRaft cluster from the stack manager (private ports, the KAFKA_VERSION line in force): a topic
// with replication factor 3 and min.insync.replicas 2 takes acks=all writes, keeps taking them with one
// node SIGKILLed, and the node started again rejoins every in-sync replica set.
import { CompressionTypes, type Admin, type Producer } from 'kafkajs';
import { createServedTopics, fromKafka } from '../infra/kafka/fromKafka';
import { waitFor } from '../shared/lifecycle';
import { startPrivateEngines, type PrivateEngines } from '../../test/faults/support/privateEngines';
import { testSettings, uniqueSuffix } from '../../test/support/testEnv';

describe('local Kafka cluster (3 combined nodes)', () => {
  let engines: PrivateEngines;
  let admin: Admin;
  let producer: Producer;
  const topic = `tidemark-cluster-${uniqueSuffix()}`;

  beforeAll(async () => {
    const started = await startPrivateEngines(testSettings(), uniqueSuffix(), () => undefined, { kafkaNodes: 3 });
    engines = started.engines;
    const kafka = fromKafka({ ...started.settings, kafkaClientId: 'cluster-test' });
    admin = kafka.admin();
    await admin.connect();
    // Retries ride out the leader election after a node dies (the client learns the new leader).
    producer = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 20, initialRetryTime: 200, maxRetryTime: 2000 } });
    await producer.connect();
  }, 240000);
  afterAll(async () => {
    await producer?.disconnect().catch(() => undefined);
    await admin?.disconnect().catch(() => undefined);
    await engines?.destroy();
  }, 120000);

  const send = (n: number, tag: string) => {
    const messages = Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: `${tag}-${i}` }));
    return producer.send({ topic, acks: -1, timeout: 30000, compression: CompressionTypes.None, messages });
  };
  const isrSizes = async () => (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]!.partitions.map((p) => p.isr.length);
  const total = async () => (await admin.fetchTopicOffsets(topic)).reduce((sum, p) => sum + Number(p.high), 0);

  it('replicates to 3, survives a SIGKILLed node with acks=all, and the restarted node rejoins', async () => {
    expect(engines.kafkaNodes.map((n) => n.id)).toEqual([1, 2, 3]);
    const described = await admin.describeCluster();
    expect(described.brokers.map((b) => b.nodeId).sort()).toEqual([1, 2, 3]);

    // Not kafkajs' waitForLeaders: a KRaft broker answers UNKNOWN_TOPIC_OR_PARTITION for a moment first.
    await createServedTopics(admin, [
      { topic, numPartitions: 3, replicationFactor: 3, configEntries: [{ name: 'min.insync.replicas', value: '2' }] },
    ]);
    await waitFor(async () => (await isrSizes()).every((n) => n === 3), { timeoutMs: 60000, what: 'every replica in sync' });
    await send(30, 'before');
    expect(await total()).toBe(30);

    // Kill the leader of partition 0, so at least one partition must elect a new leader.
    const leader = (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]!.partitions.find((p) => p.partitionId === 0)!.leader;
    const victim = engines.kafkaNodes.find((n) => n.id === leader)!;
    await victim.stop('kill');
    await send(30, 'during');
    expect(await total()).toBe(60);
    await waitFor(async () => (await isrSizes()).every((n) => n === 2), {
      timeoutMs: 60000,
      what: 'the dead node to leave the in-sync replicas',
    });

    await victim.start();
    await waitFor(async () => (await isrSizes()).every((n) => n === 3), {
      timeoutMs: 120000,
      intervalMs: 500,
      what: 'the restarted node back in sync',
    });
    await send(30, 'after');
    expect(await total()).toBe(90);
  }, 300000);
});
