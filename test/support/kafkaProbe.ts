// Reading what really reached a topic, and a real unresponsive broker address. Kafka failures in
// tests are real sockets: a closed port refuses connections; the blackhole accepts TCP connections
// and never answers, so every request times out exactly as it would against a hung broker.
import { createServer, type Server, type Socket } from 'node:net';
import type { Kafka, KafkaMessage } from 'kafkajs';
import { waitFor } from '../../src/shared/lifecycle';

export const CLOSED_PORT_BROKER = '127.0.0.1:1';

export interface Blackhole {
  broker: string;
  close(): Promise<void>;
}

export async function startBlackhole(): Promise<Blackhole> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    // Read and discard: the client's requests are accepted and never answered.
    s.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    broker: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Consumes `topic` from the beginning until `done(messages)` holds; returns every message read. */
export async function readTopic(
  kafka: Kafka,
  topic: string,
  done: (msgs: KafkaMessage[]) => boolean,
  timeoutMs = 20000,
): Promise<KafkaMessage[]> {
  const consumer = kafka.consumer({ groupId: `probe-${topic}-${Date.now()}-${Math.random().toString(36).slice(2)}` });
  const seen: KafkaMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        seen.push(message);
      },
    });
    await waitFor(() => done(seen), { timeoutMs, what: `messages on ${topic}` });
    return seen;
  } finally {
    await consumer.disconnect();
  }
}
