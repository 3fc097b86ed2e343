// One chunk of a partition's batch (partitionBatch.ts) before and after its flush: its messages mapped
// into a FlushPart (rows, or dead letters logged and counted), and once ClickHouse acknowledged it what
// is reported: the expiry detector's applied offset, PROJECTION_APPLIED and PROJECTION_DEAD_LETTERED
// state changes, the event, freshness and lag metrics.
import type { KafkaMessage } from 'kafkajs';
import { aggregateIdOf } from '../domains/contract/projectionColumns';
import type { Domain } from '../publication/event';
import { stateChangeOf, type StateChangeSubject } from '../publication/stateChanges/stateChange';
import type { Logger } from '../shared/logger';
import { identityOf } from './deadLetters';
import type { ExpiryDetector } from './expiredOffsets';
import { newestCommitMs, type FlushPart } from './flushBuffer';
import type { MessageMapper } from './mapMessage';
import { unappliedMessages } from './offsetLag';
import type { ProjectorMetrics } from './projectorMetrics';
import type { ProjectorOptions } from './projectorOptions';
import type { ExpiredRange, ProjectedRow } from './rows';

/** Which partition the chunk is of, and whether this member still owns it (resume guard's epoch). */
export interface ChunkOf {
  topic: string;
  partition: number;
  domain: Domain;
  owned: () => boolean;
}

/** The chunk's messages mapped: rows, or dead letters (logged and counted here). */
export function chunkPart(
  d: { o: Pick<ProjectorOptions, 'clock'>; map: MessageMapper; log: Logger; metrics: ProjectorMetrics },
  of: ChunkOf,
  chunk: KafkaMessage[],
  expired: ExpiredRange | undefined,
): FlushPart {
  const { topic, partition, domain } = of;
  const ingestedAtMs = d.o.clock.now().getTime();
  const part: FlushPart = { topic, partition, nextOffset: '', rows: [], deadLetters: [], messages: chunk.length, owned: of.owned };
  if (expired) part.expired = [expired];
  for (const m of chunk) {
    const mapped = d.map({ ...m, topic, partition }, domain, ingestedAtMs);
    // An erasure's tombstone: nothing to apply, nothing to report; nextOffset below moves past it.
    if (mapped.kind === 'tombstone') continue;
    if (mapped.kind === 'dead') {
      part.deadLetters.push(mapped.deadLetter);
      d.metrics.deadLetters.inc({ domain, reason: mapped.deadLetter.reason });
      const { reason, detail } = mapped.deadLetter;
      d.log.warn({ topic, partition, offset: m.offset, reason, detail }, 'event sent to the dead-letter topic');
    } else part.rows.push(mapped.projected);
  }
  part.nextOffset = (BigInt(chunk[chunk.length - 1]!.offset) + 1n).toString();
  return part;
}

/** What an acknowledged chunk reports, before its offsets are committed. */
export function reportAcknowledged(
  d: { o: Pick<ProjectorOptions, 'clock' | 'stateChanges'>; metrics: ProjectorMetrics; expiry: Pick<ExpiryDetector, 'applied'> },
  of: ChunkOf,
  part: FlushPart,
  highWatermark: string,
): void {
  const { o, metrics } = d;
  const { domain } = of;
  d.expiry.applied(of.topic, of.partition, part.nextOffset);
  const applied = part.rows.length;
  reportDeadLettered(o, part);
  if (applied && o.stateChanges) {
    const at = o.clock.now();
    o.stateChanges.emit(part.rows.map((p) => stateChangeOf(appliedSubject(p), null, 'PROJECTION_APPLIED', 0, at)));
  }
  if (applied) metrics.events.inc({ domain, outcome: 'applied' }, applied);
  if (part.deadLetters.length) metrics.events.inc({ domain, outcome: 'dead_lettered' }, part.deadLetters.length);
  const newest = newestCommitMs(part);
  if (newest) metrics.appliedCommit.set({ domain }, newest / 1000);
  metrics.lag.set(
    { domain, partition: String(of.partition) },
    unappliedMessages({ low: 0n, high: BigInt(highWatermark) }, BigInt(part.nextOffset)),
  );
}

/** What a PROJECTION_APPLIED change is about: the row's event, aggregate and version. */
function appliedSubject({ projection, row }: ProjectedRow): StateChangeSubject {
  return { eventId: row.eventId, domain: projection.domain, aggregateId: aggregateIdOf(projection.table, row), version: row.version };
}

/**
 * PROJECTION_DEAD_LETTERED for each dead letter of an acknowledged flush whose (aggregate, version)
 * can be read: a read waiting for that write learns at once that it will not be applied.
 */
function reportDeadLettered(o: Pick<ProjectorOptions, 'clock' | 'stateChanges'>, part: FlushPart): void {
  if (!o.stateChanges || part.deadLetters.length === 0) return;
  const at = o.clock.now();
  const changes = part.deadLetters
    .map((d) => ({ d, id: identityOf(d.value) }))
    .filter(({ id }) => id.aggregateId !== '' && id.version > 0)
    .map(({ d, id }) => stateChangeOf({ ...id, domain: d.domain }, null, 'PROJECTION_DEAD_LETTERED', 0, at));
  if (changes.length) o.stateChanges.emit(changes);
}
