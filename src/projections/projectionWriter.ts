// The projector's FlushSink: writes one flush to its stores. Dead letters (one Kafka send) and the
// table inserts (one per table) go first, in parallel; the checkpoint insert goes last, so a
// checkpoint is only ever written for data ClickHouse and the dead-letter topic acknowledged. Any
// failure fails the whole flush and FlushBuffer repeats it; repeating is harmless (rows collapse by
// version, a dead letter may be sent twice).
import type { Producer } from 'kafkajs';
import type { ClickHouseClient } from '../infra/clickhouse/fromClickHouse';
import type { Clock } from '../shared/clock';
import { toDeadLetterMessage } from './deadLetters';
import type { FlushBatch, FlushSink } from './flushBuffer';
import { insertCheckpoints } from './sql/insertCheckpoints';
import { insertFitnessResults } from './sql/insertFitnessResults';
import { insertOrders } from './sql/insertOrders';

export interface ProjectionWriterDeps {
  clickhouse: ClickHouseClient;
  database: string;
  /** Connected producer for the dead-letter topic (acks=all). */
  producer: Producer;
  deadLetterTopic: string;
  consumer: string;
  clock: Clock;
}

export function fromProjectionWriter(d: ProjectionWriterDeps): FlushSink {
  return {
    async write(batch: FlushBatch) {
      await Promise.all([
        batch.deadLetters.length
          ? d.producer.send({ topic: d.deadLetterTopic, acks: -1, messages: batch.deadLetters.map((x) => toDeadLetterMessage(x, d.consumer)) })
          : undefined,
        insertFitnessResults(d.clickhouse, d.database, batch.fitness),
        insertOrders(d.clickhouse, d.database, batch.orders),
      ]);
      await insertCheckpoints(d.clickhouse, d.database, d.consumer, batch.checkpoints, d.clock.now().getTime());
    },
  };
}
