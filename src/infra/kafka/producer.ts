// The producer every publisher and relay uses: acks=all, idempotent (kafkajs keeps at most 1 in-flight
// request per connection so retries cannot reorder or duplicate within a session).
import type { Kafka, Producer } from 'kafkajs';

export function fromKafkaProducer(kafka: Kafka, opts: { transactionTimeout?: number } = {}): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    transactionTimeout: opts.transactionTimeout ?? 30000,
    retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1000 },
  });
}
