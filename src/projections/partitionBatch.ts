// One fetched batch of one partition, applied: the store's checkpoints decide whether it is read
// again (resume/), expired offsets before it are checked, its messages are mapped in chunks of
// `batchSize` and handed to the shared FlushBuffer, and only once a chunk was acknowledged are its
// state changes reported (PROJECTION_APPLIED, PROJECTION_DEAD_LETTERED) and its offsets committed.
// The steps: startBatch, applyChunk (mapping and reporting in partitionChunk.ts), commit.
import type { Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { Domain } from '../publication/event';
import type { Logger } from '../shared/logger';
import { summarizeError } from '../shared/redact';
import { awaitWithHeartbeat, traceApplies } from './batchSupport';
import type { ExpiryChecks } from './expiryChecks';
import type { ExpiryDetector } from './expiredOffsets';
import { ProjectorStoppingError, type FlushBuffer } from './flushBuffer';
import { membershipLostBy } from './groupMembership';
import type { MessageMapper } from './mapMessage';
import { chunkPart, reportAcknowledged, type ChunkOf } from './partitionChunk';
import type { ProjectorMetrics } from './projectorMetrics';
import type { ProjectorOptions } from './projectorOptions';
import type { ResumeGuard } from './resume/resumeGuard';
import type { ExpiredRange } from './rows';

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

/** The handler of one partition's batch (kafkajs eachBatch). */
export function partitionBatchHandler(d: PartitionBatchDeps): (payload: EachBatchPayload) => Promise<void> {
  return async function handleBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, isRunning } = payload;
    const domain = d.domains.get(batch.topic);
    if (!domain || batch.messages.length === 0) return;
    const start = await startBatch(d, domain, payload);
    if (!start) return;
    for (let i = 0; i < batch.messages.length; i += d.o.batchSize) {
      if (!isRunning() || !start.of.owned()) return;
      const chunk = batch.messages.slice(i, i + d.o.batchSize);
      if (!(await applyChunk(d, payload, start.of, chunk, i === 0 ? start.expired : undefined))) return;
    }
  };
}

/**
 * Whether the batch is to be applied at all: the store's checkpoints decide where the partition goes
 * on (resume/), a batch past them is read again; then the offsets expired before it, if any.
 */
async function startBatch(
  d: PartitionBatchDeps,
  domain: Domain,
  { batch, heartbeat, isRunning, isStale }: EachBatchPayload,
): Promise<{ of: ChunkOf; expired: ExpiredRange | undefined } | undefined> {
  const { guard } = d;
  await awaitWithHeartbeat(guard.ready(batch.topic, batch.partition), heartbeat);
  if (!isRunning() || isStale() || guard.batch(batch.topic, batch.partition, batch.messages[0]!.offset) === 'dropped') return;
  const epoch = guard.epoch(batch.topic, batch.partition);
  const owned = () => !isStale() && guard.epoch(batch.topic, batch.partition) === epoch;
  let expired: ExpiredRange | undefined;
  try {
    const before = d.checks.expiredBefore(domain, batch.topic, batch.partition, batch.messages[0]!.offset, isRunning);
    expired = await awaitWithHeartbeat(before, heartbeat);
  } catch (err) {
    if (err instanceof ProjectorStoppingError) return;
    throw err;
  }
  if (expired) d.checks.reportExpired(expired);
  return { of: { topic: batch.topic, partition: batch.partition, domain, owned }, expired };
}

/** Maps, flushes, reports and commits one chunk; false when the batch is to go no further. */
async function applyChunk(
  d: PartitionBatchDeps,
  { batch, resolveOffset, heartbeat }: EachBatchPayload,
  of: ChunkOf,
  chunk: KafkaMessage[],
  expired: ExpiredRange | undefined,
): Promise<boolean> {
  const spans = traceApplies(batch.topic, batch.partition, chunk);
  const part = chunkPart(d, of, chunk, expired);
  try {
    await awaitWithHeartbeat(d.buffer.add(part), heartbeat);
    spans.end();
  } catch (err) {
    spans.end(err);
    if (err instanceof ProjectorStoppingError) return false; // not acknowledged: leave uncommitted for re-delivery
    throw err;
  }
  reportAcknowledged(d, of, part, batch.highWatermark);
  if (!of.owned()) return false; // sought elsewhere meanwhile: this batch's offsets are not to be committed
  resolveOffset(chunk[chunk.length - 1]!.offset);
  return commit(d, of, part.nextOffset);
}

/** Commits the chunk's offsets; a lost membership is thrown (re-join), any other failure ends the batch. */
async function commit(d: PartitionBatchDeps, { topic, partition }: ChunkOf, offset: string): Promise<boolean> {
  try {
    await d.consumer.commitOffsets([{ topic, partition, offset }]);
    return true;
  } catch (err) {
    const lost = membershipLostBy(err);
    if (lost) {
      d.log.warn({ topic, partition, error: summarizeError(err) }, 'no longer a group member; re-joining');
      throw lost;
    }
    // Usually a rebalance: the new owner re-reads from the last committed offset (harmless).
    d.log.info({ topic, partition, error: summarizeError(err) }, 'offset commit failed; the tail will be re-delivered');
    return false;
  }
}
