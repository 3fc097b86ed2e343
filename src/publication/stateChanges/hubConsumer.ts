// The state-change hub's Kafka consumer (stateChangeHub.ts fans out what it reads): its own group per
// gateway instance, short polls for a prompt stop, and the memory of every partition's next offset.
// A new group starts at the log end ("latest"). The hub remembers, in memory, the next offset of
// every partition (the log end at its first join, then what it has consumed), and after any later
// join (a restart after Kafka went away, a rebalance) it seeks back there. So changes that other
// processes flushed while this instance was cut off are delivered, not skipped; this does not
// depend on committed offsets, whose first commit can race the group's first rebalance.
import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from '../../shared/logger';
import { decodeStateChanges, type StateChange } from './stateChange';

export interface HubConsumerOptions {
  kafka: Kafka;
  topic: string;
  groupId: string;
  logger: Logger;
}

export interface HubConsumer {
  /** Resolves once the consumer has joined its group. */
  ready: Promise<void>;
  /** Settles once the consumer runs (or failed to start, which is logged). */
  running: Promise<void>;
  consumer: Consumer;
}

export function startHubConsumer(o: HubConsumerOptions, dispatch: (changes: readonly StateChange[]) => void): HubConsumer {
  const consumer: Consumer = o.kafka.consumer({
    groupId: o.groupId,
    sessionTimeout: 10000,
    heartbeatInterval: 1000,
    maxWaitTimeInMs: 500,
    retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 300, maxRetryTime: 3000 },
  }); // short polls for a prompt stop(); never gives up on a broker that is away, retrying at least every 3 s
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));
  const positions = new Map<number, string>();
  let joins = 0;
  consumer.on(consumer.events.GROUP_JOIN, () => {
    if (joins++ === 0) void rememberLogEnd(o, positions);
    else for (const [partition, offset] of positions) consumer.seek({ topic: o.topic, partition, offset });
    resolveReady();
  });
  consumer.on(consumer.events.CRASH, (e) =>
    o.logger.warn({ error: e.payload.error?.name, restart: e.payload.restart }, 'state-change hub consumer crashed'),
  );
  const running = (async () => {
    await consumer.connect();
    await consumer.subscribe({ topic: o.topic, fromBeginning: false });
    await consumer.run({
      autoCommit: true,
      eachBatch: async ({ batch }) => {
        const changes = batch.messages.flatMap((m) => (m.value ? decodeStateChanges(m.value.toString('utf8')) : []));
        dispatch(changes);
        const last = batch.messages[batch.messages.length - 1];
        if (last) positions.set(batch.partition, (BigInt(last.offset) + 1n).toString());
      },
    });
  })().catch((err) => o.logger.error({ err }, 'state-change hub failed to start'));
  return { ready, running, consumer };
}

/** The log end of every partition not yet remembered: where the first join starts. */
async function rememberLogEnd(o: HubConsumerOptions, positions: Map<number, string>): Promise<void> {
  const admin = o.kafka.admin();
  try {
    await admin.connect();
    for (const p of await admin.fetchTopicOffsets(o.topic)) if (!positions.has(p.partition)) positions.set(p.partition, p.offset);
  } catch (err) {
    o.logger.warn(
      { err: { name: (err as Error).name } },
      'state-change hub could not read the log end; a restart may resume at the new end',
    );
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
