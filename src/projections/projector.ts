// The projector: a Kafka consumer group over the fitness and order topics that keeps the ClickHouse
// read models. Horizontally scalable: every member gets a share of the partitions, and each
// partition's batch handler maps its messages, hands them to the shared FlushBuffer (one insert per
// table per flush, by size or interval) and waits for the acknowledgement before it resolves and
// commits the partition's offsets. So:
//   - offsets are committed only after ClickHouse acknowledged the rows (autoCommit is off);
//   - a restart or rebalance mid-batch re-delivers at most the uncommitted tail, which is harmless
//     (rows carry their business version; ReplacingMergeTree and argMax keep the latest);
//   - an undecodable or unmappable message becomes a dead letter in the same flush, so its
//     partition moves on;
//   - while ClickHouse (or the dead-letter topic) is unavailable the flush is retried and the
//     waiting handlers hold their partitions (heartbeating, so the group does not evict them).
import type { Consumer, ConsumerConfig, EachBatchPayload, Kafka, Producer } from 'kafkajs';
import type { Registry } from 'prom-client';
import type { ClickHouseClient } from '../infra/clickhouse/fromClickHouse';
import type { Topics } from '../infra/kafka/fromKafka';
import { fromKafkaProducer } from '../infra/kafka/producer';
import type { RetryPolicy } from '../relay/backoff';
import type { Clock } from '../shared/clock';
import { sleep, type Stoppable } from '../shared/lifecycle';
import type { Logger } from '../shared/logger';
import type { StateChangeSink } from '../publication/stateChanges/stateChange';
import { summarizeError } from '../shared/redact';
import { FlushBuffer, newestCommitMs, ProjectorStoppingError, type FlushPart } from './flushBuffer';
import { mapMessage, projectedTopics } from './mapMessage';
import { fromProjectionWriter } from './projectionWriter';
import { projectorMetrics } from './projectorMetrics';

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
}

export interface Projector extends Stoppable {
  readonly groupId: string;
  /** Resolves once this member has joined the group and received its partitions. */
  joined(): Promise<void>;
}

const HEARTBEAT_EVERY_MS = 3000;

/** Waits for the flush, heartbeating meanwhile so a long ClickHouse outage does not evict the member. */
async function awaitWithHeartbeat(applied: Promise<void>, heartbeat: () => Promise<void>): Promise<void> {
  let settled = false;
  const done = applied.finally(() => {
    settled = true;
  });
  done.catch(() => undefined);
  while (!settled) {
    const tick = new AbortController();
    await Promise.race([done, sleep(HEARTBEAT_EVERY_MS, tick.signal)]).finally(() => tick.abort());
    if (!settled) await heartbeat();
  }
  await done;
}

export async function startProjector(o: ProjectorOptions): Promise<Projector> {
  const log = o.logger.child({ component: 'projector', groupId: o.groupId });
  const metrics = projectorMetrics(o.registry);
  const domains = projectedTopics(o.topics);
  const producer: Producer = fromKafkaProducer(o.kafka);
  const consumer: Consumer = o.kafka.consumer({ groupId: o.groupId, allowAutoTopicCreation: false, ...o.consumer });
  let failures = 0;
  const buffer = new FlushBuffer(
    fromProjectionWriter({ clickhouse: o.clickhouse, database: o.database, producer, deadLetterTopic: o.topics.deadLetter, consumer: o.groupId, clock: o.clock }),
    {
      batchSize: o.batchSize,
      flushIntervalMs: o.flushIntervalMs,
      retry: o.retry,
      observer: {
        flushed(batch, ms) {
          metrics.flushes.inc({ outcome: 'ok' });
          metrics.flushSeconds.observe(ms / 1000);
          if (batch.fitness.length) metrics.rows.inc({ table: 'fitness_results' }, batch.fitness.length);
          if (batch.orders.length) metrics.rows.inc({ table: 'orders' }, batch.orders.length);
          if (failures) log.info({ failedAttempts: failures }, 'flush succeeded again; consumption resumed');
          failures = 0;
        },
        failed(err, attempt) {
          failures = attempt;
          metrics.flushes.inc({ outcome: 'failed' });
          // First failure and then every tenth: an outage must be visible but not flood the log.
          if (attempt === 1 || attempt % 10 === 0) log.warn({ attempt, error: summarizeError(err) }, 'flush failed; holding partitions and retrying');
        },
        paused: (p) => metrics.paused.set(p ? 1 : 0),
      },
    },
  );

  async function eachBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const domain = domains.get(batch.topic);
    if (!domain) return;
    for (let i = 0; i < batch.messages.length; i += o.batchSize) {
      if (!isRunning() || isStale()) return;
      const chunk = batch.messages.slice(i, i + o.batchSize);
      const ingestedAtMs = o.clock.now().getTime();
      const part: FlushPart = { topic: batch.topic, partition: batch.partition, nextOffset: '', fitness: [], orders: [], deadLetters: [], messages: chunk.length, owned: () => !isStale() };
      for (const m of chunk) {
        const mapped = mapMessage({ ...m, topic: batch.topic, partition: batch.partition }, domain, ingestedAtMs);
        if (mapped.kind === 'dead') {
          part.deadLetters.push(mapped.deadLetter);
          metrics.deadLetters.inc({ domain, reason: mapped.deadLetter.reason });
          log.warn({ topic: batch.topic, partition: batch.partition, offset: m.offset, reason: mapped.deadLetter.reason, detail: mapped.deadLetter.detail }, 'event sent to the dead-letter topic');
        } else if (mapped.projected.table === 'fitness_results') part.fitness.push(mapped.projected.row);
        else part.orders.push(mapped.projected.row);
      }
      const last = chunk[chunk.length - 1]!.offset;
      part.nextOffset = (BigInt(last) + 1n).toString();
      try {
        await awaitWithHeartbeat(buffer.add(part), heartbeat);
      } catch (err) {
        if (err instanceof ProjectorStoppingError) return; // not acknowledged: leave uncommitted for re-delivery
        throw err;
      }
      const applied = part.fitness.length + part.orders.length;
      if (applied && o.stateChanges) {
        const at = o.clock.now();
        o.stateChanges.emit([
          ...part.fitness.map((r) => ({ eventId: r.eventId, domain: 'fitness' as const, aggregateId: String(r.dataId), version: r.version, from: null, to: 'PROJECTION_APPLIED' as const, attempt: 0, at })),
          ...part.orders.map((r) => ({ eventId: r.eventId, domain: 'orders' as const, aggregateId: r.orderId, version: r.version, from: null, to: 'PROJECTION_APPLIED' as const, attempt: 0, at })),
        ]);
      }
      if (applied) metrics.events.inc({ domain, outcome: 'applied' }, applied);
      if (part.deadLetters.length) metrics.events.inc({ domain, outcome: 'dead_lettered' }, part.deadLetters.length);
      const newest = newestCommitMs(part);
      if (newest) metrics.appliedCommit.set({ domain }, newest / 1000);
      metrics.lag.set({ domain, partition: String(batch.partition) }, Math.max(0, Number(batch.highWatermark) - Number(part.nextOffset)));
      resolveOffset(last);
      try {
        await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: part.nextOffset }]);
      } catch (err) {
        // Usually a rebalance: the new owner re-reads from the last committed offset (harmless).
        log.info({ topic: batch.topic, partition: batch.partition, error: summarizeError(err) }, 'offset commit failed; the tail will be re-delivered');
        return;
      }
    }
  }

  let joinedResolve!: () => void;
  const joined = new Promise<void>((r) => (joinedResolve = r));
  consumer.on(consumer.events.GROUP_JOIN, (e) => {
    log.info({ assignment: e.payload.memberAssignment }, 'joined the projector group');
    joinedResolve();
  });
  consumer.on(consumer.events.CRASH, (e) => log.error({ error: summarizeError(e.payload.error), restart: e.payload.restart }, 'projector consumer crashed'));

  await producer.connect();
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [...domains.keys()], fromBeginning: true });
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, partitionsConsumedConcurrently: o.concurrentPartitions, eachBatch });
  } catch (err) {
    await consumer.disconnect().catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    throw err;
  }
  log.info({ topics: [...domains.keys()] }, 'projector started');

  let stopping: Promise<void> | undefined;
  return {
    groupId: o.groupId,
    joined: () => joined,
    stop() {
      stopping ??= (async () => {
        // Flush what is buffered first (bounded), so handlers waiting on it return and stop() can finish.
        await buffer.close(o.stopDeadlineMs ?? 10000);
        await consumer.disconnect().catch((err) => log.warn({ error: summarizeError(err) }, 'consumer disconnect failed'));
        await producer.disconnect().catch(() => undefined);
        log.info('projector stopped');
      })();
      return stopping;
    },
  };
}
