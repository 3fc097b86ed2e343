// The projector's checks for offsets Kafka's retention deleted before they were applied
// (expiredOffsets.ts finds them): before a batch, and for a partition just assigned, which may have
// lost messages and receive nothing after them. A check is retried until ClickHouse and Kafka answer
// or the projector stops; what it finds is counted, logged and recorded in the next flush.
import type { Domain } from '../publication/event';
import type { RetryPolicy } from '../shared/backoff';
import { sleep } from '../shared/lifecycle';
import type { Logger } from '../shared/logger';
import { summarizeError } from '../shared/redact';
import type { ExpiryDetector } from './expiredOffsets';
import { ProjectorStoppingError, type FlushBuffer } from './flushBuffer';
import type { ProjectorMetrics } from './projectorMetrics';
import type { ExpiredRange } from './rows';

export interface ExpiryCheckDeps {
  expiry: ExpiryDetector;
  buffer: FlushBuffer;
  log: Logger;
  metrics: ProjectorMetrics;
  retry: RetryPolicy;
  /** Aborted when the projector stops. */
  stopped: AbortSignal;
  /** The domain of each projected topic. */
  domains: ReadonlyMap<string, Domain>;
}

export type ExpiryChecks = ReturnType<typeof expiryChecks>;

export function expiryChecks(d: ExpiryCheckDeps) {
  const { expiry, buffer, log, metrics, domains } = d;
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
        if (!isRunning() || d.stopped.aborted) throw new ProjectorStoppingError();
        if (attempt === 1 || attempt % 10 === 0)
          log.warn({ topic, partition, attempt, error: summarizeError(err) }, 'cannot check the partition for expired offsets; retrying');
        await sleep(d.retry.delayMs(attempt), d.stopped);
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
      rows: [],
      deadLetters: [],
      expired: [r],
      messages: 0,
      owned: () => true,
    });
    expiry.applied(topic, partition, r.toOffset);
  }

  return { expiredBefore, reportExpired, checkAssigned };
}
