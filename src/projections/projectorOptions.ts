// What starting a projector takes and what it returns (projector.ts starts it; the role and the
// tests build these options).
import type { ConsumerConfig, Kafka } from 'kafkajs';
import type { Registry } from 'prom-client';
import type { ErasedAggregates } from '../domains/contract/erasure';
import type { ClickHouseClient } from '../infra/clickhouse/fromClickHouse';
import type { Topics } from '../infra/kafka/fromKafka';
import type { StateChangeSink } from '../publication/stateChanges/stateChange';
import type { RetryPolicy } from '../shared/backoff';
import type { Clock } from '../shared/clock';
import type { Stoppable } from '../shared/lifecycle';
import type { Logger } from '../shared/logger';
import type { MessageMapper } from './mapMessage';
import type { ReaderVersions } from './readerVersions';

export interface ProjectorOptions {
  kafka: Kafka;
  clickhouse: ClickHouseClient;
  database: string;
  topics: Topics;
  groupId: string;
  batchSize: number;
  flushIntervalMs: number;
  concurrentPartitions: number;
  retry: RetryPolicy;
  clock: Clock;
  logger: Logger;
  registry: Registry;
  /** kafkajs consumer overrides (session timeout, fetch sizes). */
  consumer?: Partial<ConsumerConfig>;
  /** How long stop() keeps retrying a failing final flush before leaving it to re-delivery. */
  stopDeadlineMs?: number;
  /** Where PROJECTION_APPLIED transitions are reported once ClickHouse acknowledged them. */
  stateChanges?: StateChangeSink;
  /** How far before the newest applied commit time the window of expired events starts (default 1 h). */
  expiryWindowMarginMs?: number;
  /**
   * The event schema versions this member reads and announces to its group (readerVersions.ts; default:
   * each domain's newest). The default mapping decodes with them.
   */
  reads?: ReaderVersions;
  /** The mapping from message to row or dead letter (tests substitute a fixed or broken one). */
  map?: MessageMapper;
  /** How often the store's checkpoints are compared with what was written (resume/resumeGuard.ts). */
  checkpointCheckMs?: number;
  /** The erasure guard every flush consults (erased/erasedAggregatesCache.ts); default: nothing erased. */
  erased?: ErasedAggregates;
}

export interface Projector extends Stoppable {
  readonly groupId: string;
  /** Resolves once this member has joined the group and received its partitions. */
  joined(): Promise<void>;
}
