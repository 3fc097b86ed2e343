// What the relay engine runs with (RelayDeps), what a pass reports (BatchReport), and the one check of
// its timing settings, apart from the engine so the role starter and tests can name them alone.
import type { KafkaCircuit } from '../infra/kafka/kafkaCircuit';
import type { Claim } from '../publication/relayPort/publicationTable';
import type { StateChangeSink } from '../publication/stateChanges/stateChange';
import type { RetryPolicy } from '../shared/backoff';
import type { Clock, IdGenerator } from '../shared/clock';
import type { Logger } from '../shared/logger';
import type { EventSink } from './kafkaSink';
import type { RelayMetrics } from './relayMetrics';

export type RelayStage = 'claimed' | 'published' | 'completed';

export interface RelayDeps {
  sink: EventSink;
  /** This process's belief about the cluster, shared with every other publisher in it. */
  circuit: KafkaCircuit;
  /** Record failures: backoff before the next attempt and when to give up. */
  policy: RetryPolicy;
  /**
   * The loop's own store failing (claim, completion): the pause before the next iteration. An outage,
   * never a record's fault, so capped like a Kafka outage: a shard server back after a minute is
   * published from within this ceiling, not after a record's long backoff (default: `policy`).
   */
  storeBackoff?: RetryPolicy;
  /** Last resort: a failing record older than this gives up whatever the failure (0: never). */
  giveUpAgeMs: number;
  batchSize: number;
  pollIntervalMs: number;
  leaseMs: number;
  publishTimeoutMs: number;
  /** This process's name, stored with each claim. */
  owner: string;
  ids: IdGenerator;
  clock: Clock;
  metrics: RelayMetrics;
  logger: Logger;
  /** Live operator notifications of each transition (best effort; the table is the record). */
  stateChanges: StateChangeSink;
  /** Observer of each stage of a batch (tracing; crash tests stop the process here). */
  onStage?: (stage: RelayStage, claim: Claim) => void | Promise<void>;
}

export interface BatchReport {
  claimed: number;
  reclaimed: number;
  sent: number;
  /** Record failures scheduled for a retry. */
  failed: number;
  /** PARKED / DEAD_LETTER (attempts used up, or the last-resort age). */
  gaveUp: number;
  /** Rows returned without spending an attempt because the cluster failed. */
  released: number;
  claimLost: number;
  /** The pass met an outage (the circuit is open). */
  outage: boolean;
}

/** The lease must outlast a publish, or a slow but healthy publish is reclaimed and sent twice. */
export function relayProblems(o: Pick<RelayDeps, 'leaseMs' | 'publishTimeoutMs' | 'batchSize' | 'pollIntervalMs'>): string[] {
  const problems: string[] = [];
  if (!(o.leaseMs > o.publishTimeoutMs))
    problems.push(`lease (${o.leaseMs} ms) must be longer than the publish timeout (${o.publishTimeoutMs} ms)`);
  if (!(o.batchSize >= 1)) problems.push('batch size must be at least 1');
  if (!(o.pollIntervalMs >= 1)) problems.push('poll interval must be at least 1 ms');
  return problems;
}
