// Driving the Debezium worker of the peer row (bench/rows/peerDebezium.ts): priming it (schema and
// binlog position recorded, offset stored) and waiting for its deliveries, failing at once when the
// worker dies or its task fails instead of waiting out the timeout.
import { existsSync, readFileSync } from 'node:fs';
import type { Kafka } from 'kafkajs';
import type { Knex } from 'knex';
import { alive } from '../../src/devstack/pidFile';
import { waitFor } from '../../src/shared/lifecycle';
import { seedOutbox } from '../../test/support/outboxSeed';
import { connectorState, startDebezium, type DebeziumWorker } from './debeziumConnect';
import { createTopic, topicMessageCount } from './kafkaUtil';

function logTail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-12).join(' | ').slice(-1500) : '';
}

/** Waits until `topic` holds `n` messages; fails at once when the worker dies or its task fails. */
export async function awaitDelivery(kafka: Kafka, worker: DebeziumWorker, topic: string, n: number, onFirst?: () => void): Promise<void> {
  let fatal: string | undefined; // waitFor retries a throwing check, so a dead worker ends the wait this way
  let first = false;
  await waitFor(
    async () => {
      const state = await connectorState(worker);
      const failed = state?.tasks.find((t) => t.state === 'FAILED');
      if (!alive(worker.pid)) fatal = `Kafka Connect exited: ${logTail(worker.logFile)}`;
      else if (state?.connector === 'FAILED' || failed) fatal = `Debezium task failed: ${(failed?.trace ?? '').slice(0, 800)}`;
      const got = await topicMessageCount(kafka, topic);
      if (got > 0 && !first) {
        first = true;
        onFirst?.();
      }
      return got >= n || fatal !== undefined;
    },
    { timeoutMs: 600_000, intervalMs: 100, what: `Debezium to deliver ${n} events to ${topic} (log: ${worker.logFile})` },
  );
  if (fatal) throw new Error(fatal);
}

/**
 * A first start records the schema and binlog position (snapshot.mode=no_data); one outbox row routed
 * to a topic of its own proves it streams, and the graceful stop flushes that offset to the folder,
 * which a start with `resume` then streams from. A row written before the snapshot took its position
 * is never read, so one is written every second until one arrives.
 */
export async function primeDebezium(
  kafka: Kafka,
  options: Parameters<typeof startDebezium>[0],
  db: Knex,
  primerTopic: string,
): Promise<void> {
  await createTopic(kafka, primerTopic, 1);
  const worker = await startDebezium(options);
  let primers = 0;
  const primer = setInterval(
    () => void seedOutbox(db, primerTopic, 1, { shard: 0, firstSequence: 9_000_000 + primers++ }).catch(() => undefined),
    1000,
  );
  try {
    await awaitDelivery(kafka, worker, primerTopic, 1);
  } finally {
    clearInterval(primer);
    await worker.stop({ keep: true });
  }
}
