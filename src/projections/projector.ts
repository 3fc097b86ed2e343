// The projector: a Kafka consumer group over the projected domains' topics (src/domains/projections.ts)
// that keeps the ClickHouse read models. Horizontally scalable: every member gets a share of the
// partitions, and each partition's batch handler (partitionBatch.ts) maps its messages, hands them to the shared FlushBuffer (one insert per
// table per flush, by size or interval) and waits for the acknowledgement before it resolves and
// commits the partition's offsets. So:
//   - offsets are committed only after ClickHouse acknowledged the rows (autoCommit is off);
//   - a restart or rebalance mid-batch re-delivers at most the uncommitted tail, which is harmless
//     (rows carry their business version; ReplacingMergeTree and argMax keep the latest);
//   - an undecodable or unmappable message becomes a dead letter in the same flush (and a row of the
//     operator's dead-letter list, and a PROJECTION_DEAD_LETTERED notice), so its partition moves on;
//   - messages Kafka's retention deleted before they were applied are detected (expiryChecks.ts),
//     counted and recorded in the same flush, so a reconciliation of their window is scheduled;
//   - while ClickHouse (or the dead-letter topic) is unavailable the flush is retried and the
//     waiting handlers hold their partitions (heartbeating, so the group does not evict them).
import type { Consumer, EachBatchPayload, Producer } from 'kafkajs';
import { fromKafkaProducer } from '../infra/kafka/producer';
import { repeatEvery } from '../shared/lifecycle';
import { summarizeError } from '../shared/redact';
import { expiryDetector } from './expiredOffsets';
import { expiryChecks } from './expiryChecks';
import { FlushBuffer, ProjectorStoppingError } from './flushBuffer';
import { readCheckpoints } from './freshness/sql/readCheckpoints';
import { mapMessage, projectedTopics } from './mapMessage';
import { partitionBatchHandler } from './partitionBatch';
import { fromProjectionWriter } from './projectionWriter';
import { flushObserver, projectorMetrics } from './projectorMetrics';
import type { Projector, ProjectorOptions } from './projectorOptions';
import { resumeGuard } from './resume/resumeGuard';

export async function startProjector(o: ProjectorOptions): Promise<Projector> {
  const log = o.logger.child({ component: 'projector', groupId: o.groupId });
  const metrics = projectorMetrics(o.registry);
  const domains = projectedTopics(o.topics);
  const producer: Producer = fromKafkaProducer(o.kafka);
  const consumer: Consumer = o.kafka.consumer({ groupId: o.groupId, allowAutoTopicCreation: false, ...o.consumer });
  let stopping: Promise<void> | undefined;
  const stopped = new AbortController();
  const map = o.map ?? mapMessage;
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
  const buffer = new FlushBuffer(
    fromProjectionWriter({
      clickhouse: o.clickhouse,
      database: o.database,
      producer,
      deadLetterTopic: o.topics.deadLetter,
      consumer: o.groupId,
      clock: o.clock,
      checkpoints: guard,
    }),
    {
      batchSize: o.batchSize,
      flushIntervalMs: o.flushIntervalMs,
      retry: o.retry,
      observer: flushObserver(metrics, log),
    },
  );

  const checks = expiryChecks({ expiry, buffer, log, metrics, retry: o.retry, stopped: stopped.signal, domains });
  const handleBatch = partitionBatchHandler({ o, map, log, metrics, domains, guard, buffer, consumer, expiry, checks });

  // Batch handlers still running: stop() waits for them (their offset commits included) before it
  // disconnects, or a handler whose flush the stop itself completed could lose its commit to exit.
  const handlers = new Set<Promise<void>>();
  function eachBatch(payload: EachBatchPayload): Promise<void> {
    const run = handleBatch(payload);
    handlers.add(run);
    return run.finally(() => handlers.delete(run));
  }

  let joinedResolve!: () => void;
  const joined = new Promise<void>((r) => (joinedResolve = r));
  const assignedChecks = new Set<Promise<void>>();
  consumer.on(consumer.events.GROUP_JOIN, (e) => {
    log.info({ assignment: e.payload.memberAssignment }, 'joined the projector group');
    guard.assigned(e.payload.memberAssignment);
    for (const [topic, partitions] of Object.entries(e.payload.memberAssignment))
      for (const partition of partitions) {
        const p = checks.checkAssigned(topic, partition).catch((err) => {
          if (err instanceof ProjectorStoppingError) return;
          log.warn({ topic, partition, error: summarizeError(err) }, 'expired-offset check of an assigned partition failed');
        });
        assignedChecks.add(p);
        void p.finally(() => assignedChecks.delete(p));
      }
    joinedResolve();
  });
  consumer.on(consumer.events.CRASH, (e) =>
    log.error({ error: summarizeError(e.payload.error), restart: e.payload.restart }, 'projector consumer crashed'),
  );

  await producer.connect();
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [...domains.keys()], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: o.concurrentPartitions,
      eachBatch,
    });
  } catch (err) {
    await consumer.disconnect().catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    throw err;
  }
  log.info({ topics: [...domains.keys()] }, 'projector started');
  // While ClickHouse is down the check fails every time: the first failure and every tenth are logged.
  let checkFailures = 0;
  const checker = repeatEvery(
    o.checkpointCheckMs ?? 5000,
    async () => {
      await guard.check();
      checkFailures = 0;
    },
    (err) => {
      if (++checkFailures === 1 || checkFailures % 10 === 0)
        log.warn({ attempt: checkFailures, error: summarizeError(err) }, 'cannot compare the checkpoints with what was written; next time');
    },
  );

  return {
    groupId: o.groupId,
    joined: () => joined,
    stop() {
      stopping ??= (async () => {
        stopped.abort();
        await checker.stop();
        guard.close();
        // Flush what is buffered first (bounded), so handlers waiting on it return and stop() can finish.
        await buffer.close(o.stopDeadlineMs ?? 10000);
        await Promise.allSettled([...assignedChecks, ...handlers]);
        await consumer.disconnect().catch((err) => log.warn({ error: summarizeError(err) }, 'consumer disconnect failed'));
        await producer.disconnect().catch(() => undefined);
        await expiry.close();
        log.info('projector stopped');
      })();
      return stopping;
    },
  };
}
