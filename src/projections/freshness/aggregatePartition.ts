// The Kafka partition that holds an aggregate's events, so a per-aggregate marker waits only for the
// partition its answer depends on ("provably outside the answer": another partition's lag can hold no
// version of this aggregate). Every publisher (relays, kafka-first direct sends, repairs) sends with
// key = aggregateId and no explicit partition through kafkajs's default partitioner (the producer is
// built without createPartitioner: src/infra/kafka/producer.ts), so the partition is that
// partitioner's answer for the key over the topic's partition count; the same function is called
// here, never a re-implementation. Tidemark creates its topics with a fixed partition count and never
// adds partitions (ensureTopics leaves existing topics alone); adding partitions by hand would move
// keys, which is why this module is the one place to change if that ever becomes an operation.
import { Partitioners } from 'kafkajs';

const partitioner = Partitioners.DefaultPartitioner();

export function aggregatePartition(topic: string, aggregateId: string, partitionCount: number): number {
  const partitionMetadata = Array.from({ length: partitionCount }, (_, i) => ({
    partitionId: i,
    leader: 0,
    replicas: [0],
    isr: [0],
    partitionErrorCode: 0,
  }));
  return partitioner({ topic, partitionMetadata, message: { key: aggregateId, value: null } });
}
