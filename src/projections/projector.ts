// The projector: a Kafka consumer group over the fitness and order topics that keeps the ClickHouse
// read models. Horizontally scalable: every member gets a share of the partitions, and each
// partition's batch handler maps its messages, hands them to the shared FlushBuffer (one insert per
// table per flush, by size or interval) and waits for the acknowledgement before it resolves and
// commits the partition's offsets. So:
//   - offsets are committed only after ClickHouse acknowledged the rows (autoCommit is off);
//   - a restart or rebalance mid-batch re-delivers at most the uncommitted tail, which is harmless
//     (rows carry their business version; ReplacingMergeTree and argMax keep the latest);
//   - an undecodable or unmappable message becomes a dead letter in the same flush (and a row of the
//     operator's dead-letter list, and a PROJECTION_DEAD_LETTERED notice), so its partition moves on;
//   - messages Kafka's retention deleted before they were applied are detected (expiredOffsets.ts),
//     counted and recorded in the same flush, so a reconciliation of their window is scheduled;
//   - while ClickHouse (or the dead-letter topic) is unavailable the flush is retried and the
//     waiting handlers hold their partitions (heartbeating, so the group does not evict them).
import type { Consumer, ConsumerConfig, EachBatchPayload, Kafka, Producer } from 'kafkajs';
import type { Registry } from 'prom-client';
import type { ClickHouseClient } from '../infra/clickhouse/fromClickHouse';
import type { Topics } from '../infra/kafka/fromKafka';
import { fromKafkaProducer } from '../infra/kafka/producer';
import type { RetryPolicy } from '../shared/backoff';
import type { Clock } from '../shared/clock';
import { repeatEvery, sleep, type Stoppable } from '../shared/lifecycle';
import type { Logger } from '../shared/logger';
import { stateChangeOf, type StateChangeSink } from '../publication/stateChanges/stateChange';
import { identityOf } from './deadLetters';
import { summarizeError } from '../shared/redact';
import { FlushBuffer, newestCommitMs, ProjectorStoppingError, type FlushPart } from './flushBuffer';
import { mapMessage, projectedTopics, type MessageMapper } from './mapMessage';
import { expiryDetector } from './expiredOffsets';
import type { ExpiredRange } from './rows';
import type { Domain } from '../publication/event';
import { fromProjectionWriter } from './projectionWriter';
import { projectorMetrics } from './projectorMetrics';
import { membershipLostBy } from './groupMembership';
import { awaitWithHeartbeat, traceApplies } from './batchSupport';
import { readCheckpoints } from './freshness/sql/readCheckpoints';
import { resumeGuard } from './resume/resumeGuard';

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
  /** The mapping from message to row or dead letter (tests substitute a fixed or broken one). */
  map?: MessageMapper;
  /** How often the store's checkpoints are compared with what was written (resume/resumeGuard.ts). */
  checkpointCheckMs?: number;
}

export interface Projector extends Stoppable {
  readonly groupId: string;
  /** Resolves once this member has joined the group and received its partitions. */
  joined(): Promise<void>;
}

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
  let failures = 0;
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
          if (attempt === 1 || attempt % 10 === 0)
            log.warn({ attempt, error: summarizeError(err) }, 'flush failed; holding partitions and retrying');
        },
        paused: (p) => metrics.paused.set(p ? 1 : 0),
      },
    },
  );

  /** Asks the expiry detector until ClickHouse and Kafka answer (or the projector stops). */
  async function expiredBefore(
    domain: Domain,
    topic: string,
    partition: number,
    firstOffset: string | undefined,
    isRunning: () => boolean,
  ): Promise<ExpiredRange | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await expiry.check(domain, topic, partition, firstOffset);
      } catch (err) {
        if (!isRunning() || stopped.signal.aborted) throw new ProjectorStoppingError();
        if (attempt === 1 || attempt % 10 === 0)
          log.warn({ topic, partition, attempt, error: summarizeError(err) }, 'cannot check the partition for expired offsets; retrying');
        await sleep(o.retry.delayMs(attempt), stopped.signal);
      }
    }
  }

  function reportExpired(r: ExpiredRange): void {
    const skipped = Number(BigInt(r.toOffset) - BigInt(r.fromOffset));
    metrics.expiredOffsets.inc({ domain: r.domain }, skipped);
    log.error(
      { topic: r.topic, partition: r.partition, from: r.fromOffset, to: r.toOffset, skipped },
      'messages expired on Kafka before they were applied; recorded for reconciliation',
    );
  }

  /** A partition just assigned may have lost messages and receive nothing after them: check it now. */
  async function checkAssigned(topic: string, partition: number): Promise<void> {
    const domain = domains.get(topic);
    if (!domain) return;
    const r = await expiredBefore(domain, topic, partition, undefined, () => true);
    if (!r) return;
    reportExpired(r);
    await buffer.add({
      topic,
      partition,
      nextOffset: r.toOffset,
      fitness: [],
      orders: [],
      deadLetters: [],
      expired: [r],
      messages: 0,
      owned: () => true,
    });
    expiry.applied(topic, partition, r.toOffset);
  }

  // Batch handlers still running: stop() waits for them (their offset commits included) before it
  // disconnects, or a handler whose flush the stop itself completed could lose its commit to exit.
  const handlers = new Set<Promise<void>>();
  function eachBatch(payload: EachBatchPayload): Promise<void> {
    const run = handleBatch(payload);
    handlers.add(run);
    return run.finally(() => handlers.delete(run));
  }

  async function handleBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const domain = domains.get(batch.topic);
    if (!domain || batch.messages.length === 0) return;
    // The store's checkpoints decide where the partition goes on (resume/): a batch past them is read again.
    await awaitWithHeartbeat(guard.ready(batch.topic, batch.partition), heartbeat);
    if (!isRunning() || isStale() || guard.batch(batch.topic, batch.partition, batch.messages[0]!.offset) === 'dropped') return;
    const epoch = guard.epoch(batch.topic, batch.partition);
    const current = () => !isStale() && guard.epoch(batch.topic, batch.partition) === epoch;
    let expired: ExpiredRange | undefined;
    try {
      expired = await awaitWithHeartbeat(
        expiredBefore(domain, batch.topic, batch.partition, batch.messages[0]!.offset, isRunning),
        heartbeat,
      );
    } catch (err) {
      if (err instanceof ProjectorStoppingError) return;
      throw err;
    }
    if (expired) reportExpired(expired);
    for (let i = 0; i < batch.messages.length; i += o.batchSize) {
      if (!isRunning() || !current()) return;
      const chunk = batch.messages.slice(i, i + o.batchSize);
      const ingestedAtMs = o.clock.now().getTime();
      const part: FlushPart = {
        topic: batch.topic,
        partition: batch.partition,
        nextOffset: '',
        fitness: [],
        orders: [],
        deadLetters: [],
        messages: chunk.length,
        owned: current,
      };
      const spans = traceApplies(batch.topic, batch.partition, chunk);
      if (i === 0 && expired) part.expired = [expired];
      for (const m of chunk) {
        const mapped = map({ ...m, topic: batch.topic, partition: batch.partition }, domain, ingestedAtMs);
        if (mapped.kind === 'dead') {
          part.deadLetters.push(mapped.deadLetter);
          metrics.deadLetters.inc({ domain, reason: mapped.deadLetter.reason });
          log.warn(
            {
              topic: batch.topic,
              partition: batch.partition,
              offset: m.offset,
              reason: mapped.deadLetter.reason,
              detail: mapped.deadLetter.detail,
            },
            'event sent to the dead-letter topic',
          );
        } else if (mapped.projected.table === 'fitness_results') part.fitness.push(mapped.projected.row);
        else part.orders.push(mapped.projected.row);
      }
      const last = chunk[chunk.length - 1]!.offset;
      part.nextOffset = (BigInt(last) + 1n).toString();
      try {
        await awaitWithHeartbeat(buffer.add(part), heartbeat);
        spans.end();
      } catch (err) {
        spans.end(err);
        if (err instanceof ProjectorStoppingError) return; // not acknowledged: leave uncommitted for re-delivery
        throw err;
      }
      expiry.applied(batch.topic, batch.partition, part.nextOffset);
      const applied = part.fitness.length + part.orders.length;
      reportDeadLettered(part);
      if (applied && o.stateChanges) {
        const at = o.clock.now();
        o.stateChanges.emit([
          ...part.fitness.map((r) => ({
            eventId: r.eventId,
            domain: 'fitness' as const,
            aggregateId: String(r.dataId),
            version: r.version,
            from: null,
            to: 'PROJECTION_APPLIED' as const,
            attempt: 0,
            at,
          })),
          ...part.orders.map((r) => ({
            eventId: r.eventId,
            domain: 'orders' as const,
            aggregateId: r.orderId,
            version: r.version,
            from: null,
            to: 'PROJECTION_APPLIED' as const,
            attempt: 0,
            at,
          })),
        ]);
      }
      if (applied) metrics.events.inc({ domain, outcome: 'applied' }, applied);
      if (part.deadLetters.length) metrics.events.inc({ domain, outcome: 'dead_lettered' }, part.deadLetters.length);
      const newest = newestCommitMs(part);
      if (newest) metrics.appliedCommit.set({ domain }, newest / 1000);
      metrics.lag.set({ domain, partition: String(batch.partition) }, Math.max(0, Number(batch.highWatermark) - Number(part.nextOffset)));
      if (!current()) return; // sought elsewhere meanwhile: this batch's offsets are not to be committed
      resolveOffset(last);
      try {
        await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: part.nextOffset }]);
      } catch (err) {
        const lost = membershipLostBy(err);
        if (lost) {
          log.warn({ topic: batch.topic, partition: batch.partition, error: summarizeError(err) }, 'no longer a group member; re-joining');
          throw lost;
        }
        // Usually a rebalance: the new owner re-reads from the last committed offset (harmless).
        log.info(
          { topic: batch.topic, partition: batch.partition, error: summarizeError(err) },
          'offset commit failed; the tail will be re-delivered',
        );
        return;
      }
    }
  }

  /**
   * PROJECTION_DEAD_LETTERED for each dead letter of an acknowledged flush whose (aggregate, version)
   * can be read: a read waiting for that write learns at once that it will not be applied.
   */
  function reportDeadLettered(part: FlushPart): void {
    if (!o.stateChanges || part.deadLetters.length === 0) return;
    const at = o.clock.now();
    const changes = part.deadLetters
      .map((d) => ({ d, id: identityOf(d.value) }))
      .filter(({ id }) => id.aggregateId !== '' && id.version > 0)
      .map(({ d, id }) => stateChangeOf({ ...id, domain: d.domain }, null, 'PROJECTION_DEAD_LETTERED', 0, at));
    if (changes.length) o.stateChanges.emit(changes);
  }

  let joinedResolve!: () => void;
  const joined = new Promise<void>((r) => (joinedResolve = r));
  const assignedChecks = new Set<Promise<void>>();
  consumer.on(consumer.events.GROUP_JOIN, (e) => {
    log.info({ assignment: e.payload.memberAssignment }, 'joined the projector group');
    guard.assigned(e.payload.memberAssignment);
    for (const [topic, partitions] of Object.entries(e.payload.memberAssignment))
      for (const partition of partitions) {
        const p = checkAssigned(topic, partition).catch((err) => {
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
