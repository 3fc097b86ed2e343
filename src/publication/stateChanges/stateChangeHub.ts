// Every gateway instance consumes the publication-state topic with its own consumer group (so each
// instance sees every change, whichever process made it) and fans changes out to its local
// subscribers. Each subscriber is bounded: when its queue or its socket's unsent bytes pass the
// limit it is disconnected with close code 4008 ("slow subscriber") rather than buffered forever.
// The consumer and its remembered offsets are in hubConsumer.ts; a Subscriber is a bounded queue.
import type { Kafka } from 'kafkajs';
import type { Counter, Gauge } from 'prom-client';
import { counter, gauge, type Registry } from '../../metrics/registry';
import type { Logger } from '../../shared/logger';
import type { ObservedState, StateChange } from './stateChange';
import type { Domain } from '../event';
import { startHubConsumer } from './hubConsumer';

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

/** The open subscriptions with their limits and metrics, shared by every Subscriber of one hub. */
interface SubscriberPool {
  members: Set<Subscriber>;
  maxQueued: number;
  maxBytes: number;
  active: Gauge;
  disconnected: Counter;
}

class Subscriber implements AsyncIterableIterator<StateChange> {
  private queue: StateChange[] = [];
  private waiting: ((r: IteratorResult<StateChange>) => void) | undefined;
  private done = false;
  constructor(
    private readonly pool: SubscriberPool,
    private readonly filter: StateChangeFilter,
    private readonly conn?: SubscriberConnection,
  ) {
    pool.members.add(this);
    pool.active.set(pool.members.size);
  }
  offer(c: StateChange): void {
    if (this.done || !matches(this.filter, c)) return;
    if (this.queue.length >= this.pool.maxQueued || (this.conn && this.conn.bufferedBytes() > this.pool.maxBytes)) {
      this.pool.disconnected.inc();
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
    this.pool.members.delete(this);
    this.pool.active.set(this.pool.members.size);
    const w = this.waiting;
    this.waiting = undefined;
    w?.({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }
  [Symbol.asyncIterator]() {
    return this;
  }
}

export function startStateChangeHub(o: StateChangeHubOptions): StateChangeHub {
  const pool: SubscriberPool = {
    members: new Set<Subscriber>(),
    maxQueued: o.maxQueued ?? 1000,
    maxBytes: o.maxBufferedBytes ?? 4 * 1024 * 1024,
    active: gauge(o.registry, {
      name: 'tidemark_subscriptions_active',
      help: 'Open publication-state subscriptions on this gateway.',
    }),
    disconnected: counter(o.registry, {
      name: 'tidemark_subscriptions_slow_disconnected_total',
      help: 'Subscribers disconnected because they did not keep up.',
    }),
  };
  const listeners = new Set<(changes: readonly StateChange[]) => void>();
  const dispatch = (changes: readonly StateChange[]) => {
    for (const l of listeners)
      try {
        l(changes);
      } catch (err) {
        o.logger.error({ err }, 'state-change listener failed');
      }
    for (const c of changes) for (const s of pool.members) s.offer(c);
  };
  const { ready, running, consumer } = startHubConsumer(o, dispatch);

  return {
    ready,
    subscribe: (filter, connection) => new Subscriber(pool, filter, connection),
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    dispatch,
    async stop() {
      for (const s of [...pool.members]) await s.return();
      await running;
      await consumer.disconnect().catch(() => undefined);
    },
  };
}
