// kafkajs' send path, patched (patches/kafkajs+2.2.4.patch, kafkajs#1303), against a fake cluster: the
// leader of partition 0 dies mid-send and partition 0 moves to the broker that has already answered for
// partition 1. Upstream skipped that broker on the retry, so partition 0's messages were never sent and
// send() resolved anyway (seen on the 3-node cluster: 52 of 60 acknowledged records in the log). The
// relay marks a batch published when send() resolves, so this is the difference between a retry and a loss.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const createSendMessages = require('kafkajs/src/producer/sendMessages');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const createRetry = require('kafkajs/src/retry');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { KafkaJSConnectionError } = require('kafkajs/src/errors');

interface Produced {
  node: number;
  partitions: number[];
}

function fakeCluster(opts: { dies: number; movesTo: number }) {
  const leaders = new Map([
    [0, opts.dies],
    [1, opts.movesTo],
    [2, opts.movesTo],
  ]);
  const produced: Produced[] = [];
  const broker = (nodeId: number) => ({
    nodeId,
    async produce({ topicData }: { topicData: { topic: string; partitions: { partition: number; messages: unknown[] }[] }[] }) {
      const partitions = topicData.flatMap((t) => t.partitions.map((p) => Number(p.partition)));
      if (nodeId === opts.dies && leaders.get(0) === opts.dies) throw new KafkaJSConnectionError('Connection error: ECONNREFUSED');
      produced.push({ node: nodeId, partitions });
      return {
        topics: topicData.map((t) => ({
          topicName: t.topic,
          partitions: t.partitions.map((p) => ({ partition: Number(p.partition), errorCode: 0, baseOffset: '0' })),
        })),
      };
    },
  });
  const brokers = new Map([opts.dies, opts.movesTo].map((id) => [id, broker(id)]));
  const cluster = {
    targetTopics: new Set<string>(),
    async addMultipleTargetTopics() {},
    async refreshMetadataIfNecessary() {},
    // After the failed attempt the client asks for metadata: partition 0 now has the survivor as leader.
    async refreshMetadata() {
      leaders.set(0, opts.movesTo);
    },
    isConnected: () => true,
    removeBroker() {},
    findTopicPartitionMetadata: () => [...leaders].map(([partitionId, leader]) => ({ partitionId, leader })),
    findLeaderForPartitions(_topic: string, partitions: string[]) {
      const out: Record<number, number[]> = {};
      for (const p of partitions.map(Number)) (out[leaders.get(p)!] ??= []).push(p);
      return out;
    },
    findBroker: async ({ nodeId }: { nodeId: string }) => brokers.get(Number(nodeId)),
  };
  return { cluster, produced };
}

const eosManager = {
  acquireBrokerLock: async () => undefined,
  releaseBrokerLock: async () => undefined,
  isTransactional: () => false,
  getSequence: () => 0,
  updateSequence: () => undefined,
  getProducerId: () => -1,
  getProducerEpoch: () => 0,
};
const logger = { debug: () => undefined, error: () => undefined, info: () => undefined, warn: () => undefined };

describe('kafkajs send when a leader moves to a broker that has already answered', () => {
  it('sends the moved partition to its new leader before resolving, and each partition once', async () => {
    const { cluster, produced } = fakeCluster({ dies: 3, movesTo: 1 });
    const send = createSendMessages({
      logger,
      cluster,
      eosManager,
      retrier: createRetry({ retries: 3, initialRetryTime: 1, maxRetryTime: 2 }),
      partitioner: ({ message }: { message: { partition: number } }) => message.partition,
    });
    const messages = [0, 1, 2, 0, 1, 2].map((partition, i) => ({ partition, key: `k${i}`, value: `v${i}` }));
    const result = await send({ acks: -1, timeout: 1000, topicMessages: [{ topic: 't', messages }] });

    expect(result.map((r: { partition: number }) => r.partition).sort()).toEqual([0, 1, 2]);
    const sentPartitions = produced.flatMap((p) => p.partitions).sort();
    expect(sentPartitions).toEqual([0, 1, 2]);
    expect(produced.find((p) => p.partitions.includes(0))!.node).toBe(1);
  });
});
