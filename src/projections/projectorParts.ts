// What one projector is made of, wired in the order startProjector (projector.ts) always built it:
// the consumer and the dead-letter producer, the expired-offset detector, the resume guard over the
// store's checkpoints, the shared FlushBuffer over the projection writer, and the batch handler whose
// runs are tracked so stop() can wait for them. Kept apart so startProjector reads as its steps.
import type { Consumer, EachBatchPayload, Producer } from 'kafkajs';
import { fromKafkaProducer } from '../infra/kafka/producer';
import type { Domain } from '../publication/event';
import type { Logger } from '../shared/logger';
import { expiryDetector, type ExpiryDetector } from './expiredOffsets';
import { expiryChecks, type ExpiryChecks } from './expiryChecks';
import { FlushBuffer } from './flushBuffer';
import { readCheckpoints } from './freshness/sql/readCheckpoints';
import { mapMessageReading, projectedTopics } from './mapMessage';
import { partitionBatchHandler } from './partitionBatch';
import { fromProjectionWriter } from './projectionWriter';
import { flushObserver, projectorMetrics, type ProjectorMetrics } from './projectorMetrics';
import type { ProjectorOptions } from './projectorOptions';
import { readerVersions } from './readerVersions';
import { announcingAssigner } from '../infra/kafka/readsAnnouncement';
import { resumeGuard, type ResumeGuard } from './resume/resumeGuard';

export interface ProjectorParts {
  o: ProjectorOptions;
  log: Logger;
  metrics: ProjectorMetrics;
  /** Topic -> domain, for the projected domains. */
  domains: ReadonlyMap<string, Domain>;
  producer: Producer;
  consumer: Consumer;
  /** Aborted first by stop(): the expired-offset checks give up. */
  stopped: AbortController;
  expiry: ExpiryDetector;
  guard: ResumeGuard;
  buffer: FlushBuffer;
  checks: ExpiryChecks;
  /**
   * Batch handlers still running: stop() waits for them (their offset commits included) before it
   * disconnects, or a handler whose flush the stop itself completed could lose its commit to exit.
   */
  handlers: Set<Promise<void>>;
  /** Expired-offset checks of newly assigned partitions still running (stop() waits for them too). */
  assignedChecks: Set<Promise<void>>;
  eachBatch(payload: EachBatchPayload): Promise<void>;
}

export function projectorParts(o: ProjectorOptions): ProjectorParts {
  const log = o.logger.child({ component: 'projector', groupId: o.groupId });
  const metrics = projectorMetrics(o.registry);
  const domains = projectedTopics(o.topics);
  const producer: Producer = fromKafkaProducer(o.kafka);
  // The member announces the schema versions it reads in its group metadata (readsAnnouncement.ts), and
  // decodes with exactly those: the producers' gate then never writes what this member would park.
  const reads = o.reads ?? readerVersions();
  const partitionAssigners = [announcingAssigner(reads)];
  const consumer: Consumer = o.kafka.consumer({ groupId: o.groupId, allowAutoTopicCreation: false, partitionAssigners, ...o.consumer });
  const stopped = new AbortController();
  const map = o.map ?? mapMessageReading(reads);
  const expiry = expiryDetector({
    kafka: o.kafka,
    clickhouse: o.clickhouse,
    database: o.database,
    consumer: o.groupId,
    clock: o.clock,
    windowMarginMs: o.expiryWindowMarginMs ?? 3600000,
  });
  const guard = resumeGuard(
    {
      readStored: async (topic) =>
        new Map((await readCheckpoints(o.clickhouse, o.database, o.groupId, topic)).map((p) => [p.partition, p.nextOffset])),
      seek: (topic, partition, offset) => consumer.seek({ topic, partition, offset: offset.toString() }),
      sought: (topic, partition) => expiry.forget(topic, partition),
      lost: (topic, _partition, from, to) => metrics.refilled.inc({ domain: domains.get(topic) ?? 'unknown' }, Number(to - from)),
    },
    { logger: log, retry: o.retry },
  );
  const buffer = flushBufferOf(o, producer, guard, metrics, log);
  const checks = expiryChecks({ expiry, buffer, log, metrics, retry: o.retry, stopped: stopped.signal, domains });
  const handleBatch = partitionBatchHandler({ o, map, log, metrics, domains, guard, buffer, consumer, expiry, checks });
  const handlers = new Set<Promise<void>>();
  function eachBatch(payload: EachBatchPayload): Promise<void> {
    const run = handleBatch(payload);
    handlers.add(run);
    return run.finally(() => handlers.delete(run));
  }
  const parts = { o, log, metrics, domains, producer, consumer, stopped, expiry, guard, buffer, checks, handlers, eachBatch };
  return { ...parts, assignedChecks: new Set<Promise<void>>() };
}

/** One insert per table per flush (by size or interval), the checkpoints written with the rows. */
function flushBufferOf(o: ProjectorOptions, producer: Producer, guard: ResumeGuard, metrics: ProjectorMetrics, log: Logger): FlushBuffer {
  return new FlushBuffer(
    fromProjectionWriter({
      clickhouse: o.clickhouse,
      database: o.database,
      producer,
      deadLetterTopic: o.topics.deadLetter,
      consumer: o.groupId,
      clock: o.clock,
      checkpoints: guard,
      ...(o.erased ? { erased: o.erased } : {}),
    }),
    {
      batchSize: o.batchSize,
      flushIntervalMs: o.flushIntervalMs,
      retry: o.retry,
      observer: flushObserver(metrics, log),
    },
  );
}
