// One fetched batch of one partition, applied: the store's checkpoints decide whether it is read
// again (resume/), expired offsets before it are checked, its messages are mapped in chunks of
// `batchSize` and handed to the shared FlushBuffer, and only once a chunk was acknowledged are its
// state changes reported (PROJECTION_APPLIED, PROJECTION_DEAD_LETTERED) and its offsets committed.
import { unappliedMessages } from './offsetLag';
import type { Consumer, EachBatchPayload } from 'kafkajs';
import { aggregateIdOf } from '../domains/contract/projectionColumns';
import type { Domain } from '../publication/event';
import { stateChangeOf, type StateChangeSubject } from '../publication/stateChanges/stateChange';
import type { Logger } from '../shared/logger';
import { summarizeError } from '../shared/redact';
import { awaitWithHeartbeat, traceApplies } from './batchSupport';
import { identityOf } from './deadLetters';
import type { ExpiryChecks } from './expiryChecks';
import type { ExpiryDetector } from './expiredOffsets';
import { newestCommitMs, ProjectorStoppingError, type FlushBuffer, type FlushPart } from './flushBuffer';
import { membershipLostBy } from './groupMembership';
import type { MessageMapper } from './mapMessage';
import type { ProjectorMetrics } from './projectorMetrics';
import type { ProjectorOptions } from './projectorOptions';
import type { ResumeGuard } from './resume/resumeGuard';
import type { ExpiredRange, ProjectedRow } from './rows';

export interface PartitionBatchDeps {
  o: Pick<ProjectorOptions, 'batchSize' | 'clock' | 'stateChanges'>;
  map: MessageMapper;
  log: Logger;
  metrics: ProjectorMetrics;
  domains: ReadonlyMap<string, Domain>;
  guard: ResumeGuard;
  buffer: FlushBuffer;
  consumer: Consumer;
  expiry: Pick<ExpiryDetector, 'applied'>;
  checks: Pick<ExpiryChecks, 'expiredBefore' | 'reportExpired'>;
}

/** What a PROJECTION_APPLIED change is about: the row's event, aggregate and version. */
function appliedSubject({ projection, row }: ProjectedRow): StateChangeSubject {
  return { eventId: row.eventId, domain: projection.domain, aggregateId: aggregateIdOf(projection.table, row), version: row.version };
}

/** The handler of one partition's batch (kafkajs eachBatch). */
export function partitionBatchHandler(d: PartitionBatchDeps): (payload: EachBatchPayload) => Promise<void> {
  const { o, map, log, metrics, domains, guard, buffer, consumer, expiry } = d;
  const { expiredBefore, reportExpired } = d.checks;

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
        rows: [],
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
        } else part.rows.push(mapped.projected);
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
      const applied = part.rows.length;
      reportDeadLettered(part);
      if (applied && o.stateChanges) {
        const at = o.clock.now();
        o.stateChanges.emit(part.rows.map((p) => stateChangeOf(appliedSubject(p), null, 'PROJECTION_APPLIED', 0, at)));
      }
      if (applied) metrics.events.inc({ domain, outcome: 'applied' }, applied);
      if (part.deadLetters.length) metrics.events.inc({ domain, outcome: 'dead_lettered' }, part.deadLetters.length);
      const newest = newestCommitMs(part);
      if (newest) metrics.appliedCommit.set({ domain }, newest / 1000);
      metrics.lag.set(
        { domain, partition: String(batch.partition) },
        unappliedMessages({ low: 0n, high: BigInt(batch.highWatermark) }, BigInt(part.nextOffset)),
      );
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

  return handleBatch;
}
