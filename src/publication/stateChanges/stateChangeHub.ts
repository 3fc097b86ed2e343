// Every gateway instance consumes the publication-state topic with its own consumer group (so each
// instance sees every change, whichever process made it) and fans changes out to its local
// subscribers. Each subscriber is bounded: when its queue or its socket's unsent bytes pass the
// limit it is disconnected with close code 4008 ("slow subscriber") rather than buffered forever.
import type { Consumer, Kafka } from 'kafkajs';
import { counter, gauge, type Registry } from '../../metrics/registry';
import type { Logger } from '../../shared/logger';
import { decodeStateChanges, type ObservedState, type StateChange } from './stateChange';
import type { Domain } from '../event';

export const SLOW_SUBSCRIBER_CLOSE_CODE = 4008;

export interface StateChangeFilter {
  domain?: Domain;
  states?: ObservedState[];
  aggregateId?: string;
}

/** The subscriber's connection, to measure backpressure and to disconnect it. */
export interface SubscriberConnection {
  bufferedBytes(): number;
  close(code: number, reason: string): void;
}

export interface StateChangeHub {
  /** Resolves once the consumer has joined its group (changes after this moment are delivered). */
  ready: Promise<void>;
  subscribe(filter: StateChangeFilter, connection?: SubscriberConnection): AsyncIterableIterator<StateChange>;
  /**
   * Calls `listener` synchronously with every batch of changes this gateway receives, unfiltered and
   * unbounded by any queue (in-process consumers such as the consistency waiter, which must never be
   * disconnected as a slow subscriber). Returns the function that removes it.
   */
  listen(listener: (changes: readonly StateChange[]) => void): () => void;
  /** Delivers changes to local subscribers (also used directly by tests and same-process emitters). */
  dispatch(changes: readonly StateChange[]): void;
  stop(): Promise<void>;
}

export interface StateChangeHubOptions {
  kafka: Kafka;
  topic: string;
  groupId: string;
  registry: Registry;
  logger: Logger;
  maxQueued?: number;
  maxBufferedBytes?: number;
}

function matches(f: StateChangeFilter, c: StateChange): boolean {
  return (
    (!f.domain || f.domain === c.domain) &&
    (!f.aggregateId || f.aggregateId === c.aggregateId) &&
    (!f.states?.length || f.states.includes(c.to))
  );
}

export function startStateChangeHub(o: StateChangeHubOptions): StateChangeHub {
  const maxQueued = o.maxQueued ?? 1000;
  const maxBytes = o.maxBufferedBytes ?? 4 * 1024 * 1024;
  const subscribers = new Set<Subscriber>();
  const active = gauge(o.registry, {
    name: 'tidemark_subscriptions_active',
    help: 'Open publication-state subscriptions on this gateway.',
  });
  const disconnected = counter(o.registry, {
    name: 'tidemark_subscriptions_slow_disconnected_total',
    help: 'Subscribers disconnected because they did not keep up.',
  });

  class Subscriber implements AsyncIterableIterator<StateChange> {
    private queue: StateChange[] = [];
    private waiting: ((r: IteratorResult<StateChange>) => void) | undefined;
    private done = false;
    constructor(
      private readonly filter: StateChangeFilter,
      private readonly conn?: SubscriberConnection,
    ) {
      subscribers.add(this);
      active.set(subscribers.size);
    }
    offer(c: StateChange): void {
      if (this.done || !matches(this.filter, c)) return;
      if (this.queue.length >= maxQueued || (this.conn && this.conn.bufferedBytes() > maxBytes)) {
        disconnected.inc();
        this.conn?.close(SLOW_SUBSCRIBER_CLOSE_CODE, 'slow subscriber: buffer limit exceeded');
        void this.return();
        return;
      }
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w({ value: c, done: false });
      } else this.queue.push(c);
    }
    next(): Promise<IteratorResult<StateChange>> {
      const c = this.queue.shift();
      if (c) return Promise.resolve({ value: c, done: false });
      if (this.done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => (this.waiting = resolve));
    }
    return(): Promise<IteratorResult<StateChange>> {
      this.done = true;
      this.queue = [];
      subscribers.delete(this);
      active.set(subscribers.size);
      const w = this.waiting;
      this.waiting = undefined;
      w?.({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    }
    [Symbol.asyncIterator]() {
      return this;
    }
  }

  const listeners = new Set<(changes: readonly StateChange[]) => void>();
  const dispatch = (changes: readonly StateChange[]) => {
    for (const l of listeners)
      try {
        l(changes);
      } catch (err) {
        o.logger.error({ err }, 'state-change listener failed');
      }
    for (const c of changes) for (const s of subscribers) s.offer(c);
  };

  const consumer: Consumer = o.kafka.consumer({
    groupId: o.groupId,
    sessionTimeout: 10000,
    heartbeatInterval: 1000,
    maxWaitTimeInMs: 500,
    retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 300, maxRetryTime: 3000 },
  }); // short polls for a prompt stop(); never gives up on a broker that is away, retrying at least every 3 s
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));
  // A new group starts at the log end ("latest"). The hub remembers, in memory, the next offset of
  // every partition (the log end at its first join, then what it has consumed), and after any later
  // join (a restart after Kafka went away, a rebalance) it seeks back there. So changes that other
  // processes flushed while this instance was cut off are delivered, not skipped; this does not
  // depend on committed offsets, whose first commit can race the group's first rebalance.
  const positions = new Map<number, string>();
  let joins = 0;
  consumer.on(consumer.events.GROUP_JOIN, () => {
    if (joins++ === 0) void rememberLogEnd();
    else for (const [partition, offset] of positions) consumer.seek({ topic: o.topic, partition, offset });
    resolveReady();
  });
  consumer.on(consumer.events.CRASH, (e) =>
    o.logger.warn({ error: e.payload.error?.name, restart: e.payload.restart }, 'state-change hub consumer crashed'),
  );
  async function rememberLogEnd(): Promise<void> {
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

  return {
    ready,
    subscribe: (filter, connection) => new Subscriber(filter, connection),
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    dispatch,
    async stop() {
      for (const s of [...subscribers]) await s.return();
      await running;
      await consumer.disconnect().catch(() => undefined);
    },
  };
}
