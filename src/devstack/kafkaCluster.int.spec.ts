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

  /** Sends n keyed records (they spread over all 3 partitions) and holds that every partition answered. */
  const send = async (n: number, tag: string) => {
    const messages = Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: `${tag}-${i}` }));
    const acked = await producer.send({ topic, acks: -1, timeout: 30000, compression: CompressionTypes.None, messages });
    // Unpatched kafkajs resolved here without partition 0 when its leader died (kafkajs#1303).
    expect(acked.map((r) => r.partition).sort()).toEqual([0, 1, 2]);
  };
  const isrSizes = async () => (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]!.partitions.map((p) => p.isr.length);
  const total = async () => (await admin.fetchTopicOffsets(topic)).reduce((sum, p) => sum + Number(p.high), 0);
  /**
   * Nothing acknowledged is lost: the log holds at least `n` records (a batch this plain producer retried
   * across the node's death may be there twice). Asked until it says so: around a death a partition may be
   * between leaders, and a new leader's high watermark follows its followers' fetches a moment later.
   */
  const expectAtLeast = async (n: number) => {
    let seen = -1;
    await waitFor(async () => (seen = await total()) >= n, { timeoutMs: 60000, what: `${n} records in the log` }).catch(() => undefined);
    expect(seen).toBeGreaterThanOrEqual(n);
  };

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
    await expectAtLeast(30);

    // Kill the leader of partition 0, so at least one partition must elect a new leader.
    const leader = (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]!.partitions.find((p) => p.partitionId === 0)!.leader;
    const victim = engines.kafkaNodes.find((n) => n.id === leader)!;
    await victim.stop('kill');
    await send(30, 'during');
    await expectAtLeast(60);
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
    await expectAtLeast(90);
  }, 300000);
});
