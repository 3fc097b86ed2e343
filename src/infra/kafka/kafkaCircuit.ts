// What this process believes about the Kafka cluster, shared by everything in it that publishes: the
// relay loops of every store and table, and the kafka-first direct path. CLOSED: sends go ahead. OPEN:
// a send failed because of the cluster (shared/publishFailure.ts says which failures count); the relays stop
// claiming and wait, the direct path stores its fallback row at once instead of spending up to
// KAFKA_FIRST_DEADLINE_MS on attempts that cannot succeed, and one prober asks the cluster with
// jittered exponential backoff (capped) until it answers. A probe that answers closes the circuit; the
// backoff level is only reset by a real acknowledged send, so a cluster that answers metadata but keeps
// refusing writes is probed less and less often instead of in a tight loop.
import type { RetryPolicy } from '../../shared/backoff';
import { sleep } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import { counter, gauge, type Registry } from '../../metrics/registry';

export type CircuitState = 'closed' | 'open';

export interface KafkaCircuit {
  readonly state: CircuitState;
  /** An acknowledged send: the cluster answers writes. */
  succeeded(): void;
  /** A send failed because of the cluster: open (if closed) and start probing. */
  failed(error: unknown): void;
  /** Resolves at once when closed; otherwise once a probe finds the cluster answering, or `signal` aborts. */
  whenClosed(signal?: AbortSignal): Promise<void>;
  /** Asks the cluster now; closes the circuit when it answers. */
  probe(): Promise<boolean>;
  stop(): Promise<void>;
}

export interface KafkaCircuitOptions {
  /** Resolves when the cluster answers (bounded in time by the implementation), rejects otherwise. */
  probe(): Promise<void>;
  /** Delay before probe n (1-based) while open; only delayMs is used. */
  backoff: Pick<RetryPolicy, 'delayMs'>;
  logger: Logger;
  registry?: Registry;
  /** Metric label: which process part owns it (one circuit per process in production). */
  name?: string;
}

export function kafkaCircuit(o: KafkaCircuitOptions): KafkaCircuit {
  const labels = { circuit: o.name ?? 'kafka' };
  const r = o.registry;
  const openGauge =
    r &&
    gauge(r, {
      name: 'tidemark_kafka_circuit_open',
      help: '1 while this process treats the Kafka cluster as unreachable (relays wait, direct publishing stores the fallback row at once).',
      labelNames: ['circuit'],
    });
  const opened =
    r &&
    counter(r, {
      name: 'tidemark_kafka_circuit_opened_total',
      help: 'Times this process saw the Kafka cluster fail and opened its circuit.',
      labelNames: ['circuit'],
    });
  const probes =
    r &&
    counter(r, {
      name: 'tidemark_kafka_circuit_probes_total',
      help: 'Cluster probes made while the circuit was open, by result.',
      labelNames: ['circuit', 'result'],
    });
  openGauge?.set(labels, 0);
  let state: CircuitState = 'closed';
  let level = 0;
  let prober: Promise<void> | undefined;
  const waiters = new Set<() => void>();
  const stopping = new AbortController();

  function close(): void {
    if (state === 'closed') return;
    state = 'closed';
    openGauge?.set(labels, 0);
    o.logger.info({ ...labels }, 'Kafka answers again; publishing resumes');
    for (const wake of [...waiters]) wake();
  }

  async function probeOnce(): Promise<boolean> {
    try {
      await o.probe();
      probes?.inc({ ...labels, result: 'answered' });
      close();
      return true;
    } catch {
      probes?.inc({ ...labels, result: 'failed' });
      return false;
    }
  }

  function startProber(): void {
    prober ??= (async () => {
      while (state === 'open' && !stopping.signal.aborted) {
        await sleep(o.backoff.delayMs(++level), stopping.signal);
        if (state === 'open' && !stopping.signal.aborted) await probeOnce();
      }
    })().finally(() => {
      prober = undefined;
    });
  }

  return {
    get state() {
      return state;
    },
    succeeded() {
      level = 0;
      close();
    },
    failed(error) {
      if (state === 'open' || stopping.signal.aborted) return;
      state = 'open';
      openGauge?.set(labels, 1);
      opened?.inc(labels);
      o.logger.warn(
        { ...labels, error: summarizeError(error) },
        'Kafka is unreachable: relays wait and direct publishing stores fallback rows until a probe answers',
      );
      startProber();
    },
    whenClosed(signal) {
      if (state === 'closed' || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        waiters.add(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    },
    probe: probeOnce,
    async stop() {
      stopping.abort();
      for (const wake of [...waiters]) wake();
      await prober;
    },
  };
}

/** A circuit that is always closed (tests and tools that want every attempt made). */
export const alwaysClosedCircuit: KafkaCircuit = {
  state: 'closed',
  succeeded: () => undefined,
  failed: () => undefined,
  whenClosed: async () => undefined,
  probe: async () => true,
  stop: async () => undefined,
};
