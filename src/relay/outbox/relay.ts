// The outbox relay for one store: claim a batch (short transaction, SKIP LOCKED, lease from the
// database clock), publish it outside any transaction, then complete it guarded by the claim token.
// Safe with any number of relay processes per store. Crash points and what recovers them:
//   after claim, before publish      -> rows stay PROCESSING; the lease expires; another claim
//                                       (or this relay after restart) takes them over
//   broker took it, ack lost/timeout -> FAILED with backoff; re-sent later (a duplicate, never a loss)
//   after publish, before SENT       -> lease expires, reclaimed, published again (duplicate)
// Consumers deduplicate by (aggregateId, version); every re-send is the same stored record.
import type { StateChangeSink } from '../../publication/stateChanges/stateChange';
import { randomIds, type IdGenerator } from '../../shared/clock';
import { TidemarkError } from '../../shared/errors';
import { sleep, type Stoppable } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import { failureGroups, stateChangesOf } from './completion';
import type { RetryPolicy } from '../backoff';
import { PublishTimeoutError, withTimeout, type EventSink, type PublishResult } from './kafkaSink';
import type { OutboxMetrics } from './metrics';
import { storeLabels, type OutboxStore } from './outboxStore';
import { claimBatch, type Claim } from './sql/claimBatch';
import { hasDueRows } from './sql/hasDueRows';
import type { BacklogSignal } from './backlogSignal';
import { markFailed } from './sql/markFailed';
import { markSent } from './sql/markSent';

export type RelayStage = 'claimed' | 'published' | 'completed';

export interface OutboxRelayOptions {
  store: OutboxStore;
  sink: EventSink;
  policy: RetryPolicy;
  batchSize: number;
  pollIntervalMs: number;
  leaseMs: number;
  publishTimeoutMs: number;
  /** This process's name, stored with each claim (claimed_by). */
  owner: string;
  metrics: OutboxMetrics;
  logger: Logger;
  ids?: IdGenerator;
  /** Live operator notifications of each transition (best effort; the table is the record). */
  stateChanges?: StateChangeSink;
  /** Observer of each stage of a batch (tracing; crash tests stop the process here). */
  onStage?: (stage: RelayStage, claim: Claim) => void | Promise<void>;
  /**
   * Extra loops on a store share one backlog signal: the first loop polls; a helper (`helper: true`)
   * sleeps until some loop claims a full batch, works while its own claims come back full, and sleeps
   * again, so an idle store costs one loop's polling however many loops drain a backlog.
   */
  backlog?: BacklogSignal;
  helper?: boolean;
}

export interface BatchReport {
  claimed: number;
  reclaimed: number;
  sent: number;
  failed: number;
  parked: number;
  claimLost: number;
}

/** The lease must outlast a publish, or a slow but healthy publish is reclaimed and sent twice. */
export function validateRelayOptions(o: Pick<OutboxRelayOptions, 'leaseMs' | 'publishTimeoutMs' | 'batchSize' | 'pollIntervalMs' | 'helper' | 'backlog'>): void {
  const problems: string[] = [];
  if (o.helper && !o.backlog) problems.push('a helper loop needs the backlog signal that wakes it');
  if (!(o.leaseMs > o.publishTimeoutMs)) problems.push(`lease (${o.leaseMs} ms) must be longer than the publish timeout (${o.publishTimeoutMs} ms)`);
  if (!(o.batchSize >= 1)) problems.push('batch size must be at least 1');
  if (!(o.pollIntervalMs >= 1)) problems.push('poll interval must be at least 1 ms');
  if (problems.length) throw new TidemarkError('CONFIG_INVALID', `outbox relay: ${problems.join('; ')}`, { retriable: false });
}

/** Claims, publishes and completes one batch. */
export async function relayOnce(o: OutboxRelayOptions): Promise<BatchReport> {
  const labels = storeLabels(o.store);
  const claim = await claimBatch(o.store.db, {
    batchSize: o.batchSize,
    leaseMs: o.leaseMs,
    token: (o.ids ?? randomIds).uuid(),
    owner: o.owner,
    giveUp: (attempts) => o.policy.giveUp(attempts),
  });
  const report: BatchReport = { claimed: claim.events.length, reclaimed: claim.reclaimed, sent: 0, failed: 0, parked: claim.parked.length, claimLost: 0 };
  if (claim.parked.length) {
    o.metrics.parked.inc(labels, claim.parked.length);
    o.stateChanges?.emit(stateChangesOf(claim.parked, 'PARKED', () => 'PROCESSING'));
    o.logger.warn({ ...labels, eventIds: claim.parked.slice(0, 20).map((e) => e.eventId), count: claim.parked.length }, 'outbox events parked: claims expired too often');
  }
  if (claim.events.length === 0) return report;
  o.metrics.claimed.inc(labels, claim.events.length);
  if (claim.reclaimed) o.metrics.reclaimedExpired.inc(labels, claim.reclaimed);
  o.stateChanges?.emit(stateChangesOf(claim.events, 'PROCESSING', (e) => e.previousStatus));
  await o.onStage?.('claimed', claim);

  const endTimer = o.metrics.publishSeconds.startTimer(labels);
  // The relay bounds the publish itself too, whatever the sink does, so a claim is always completed
  // (or abandoned) before its lease can run out under a healthy relay.
  const result = await withTimeout(o.sink.publish(claim.events), o.publishTimeoutMs, () => new PublishTimeoutError(o.publishTimeoutMs)).catch(
    (error: unknown): PublishResult => ({ sent: [], failed: claim.events.map((e) => ({ id: e.id, error })) }),
  );
  endTimer({ outcome: result.failed.length ? 'failed' : 'ok' });
  await o.onStage?.('published', claim);

  const sentNow = await markSent(o.store.db, claim.token, result.sent);
  report.sent = sentNow;
  report.claimLost += result.sent.length - sentNow;
  o.metrics.sent.inc(labels, sentNow);
  // Notifications only for groups whose completion fully held (with a lost claim we cannot tell which rows).
  if (sentNow === result.sent.length) {
    const sentIds = new Set(result.sent);
    o.stateChanges?.emit(stateChangesOf(claim.events.filter((e) => sentIds.has(e.id)), 'SENT', () => 'PROCESSING'));
  }

  for (const g of failureGroups(result.failed, claim.events, o.policy)) {
    const changed = await markFailed(o.store.db, claim.token, g);
    report.claimLost += g.ids.length - changed;
    if (changed === g.ids.length) o.stateChanges?.emit(stateChangesOf(g.events, g.park ? 'PARKED' : 'FAILED', () => 'PROCESSING'));
    if (g.park) {
      report.parked += changed;
      o.metrics.parked.inc(labels, changed);
      o.logger.warn({ ...labels, eventIds: g.events.slice(0, 20).map((e) => e.eventId), count: changed, errorCode: g.error.code }, 'outbox events parked after their last attempt');
    } else {
      report.failed += changed;
      o.metrics.failed.inc(labels, changed);
    }
  }
  if (report.claimLost) {
    o.metrics.claimLost.inc(labels, report.claimLost);
    o.logger.warn({ ...labels, count: report.claimLost }, 'outbox completions lost their claim (lease expired and was taken over); left to the new owner');
  }
  await o.onStage?.('completed', claim);
  return report;
}

export interface OutboxRelay extends Stoppable {
  /** Resolves when the loop has ended (after stop()). */
  readonly done: Promise<void>;
}

/**
 * Runs relayOnce in a loop until stop(); stop() lets the in-flight batch finish (drain). After a claim
 * that found nothing, the loop first looks (hasDueRows, one cheap statement) and claims only when
 * there is something to take.
 */
export function startOutboxRelay(o: OutboxRelayOptions): OutboxRelay {
  validateRelayOptions(o);
  const abort = new AbortController();
  const labels = storeLabels(o.store);
  let failuresInARow = 0;
  let idle = o.helper === true;
  const done = (async () => {
    while (!abort.signal.aborted) {
      if (o.helper && idle) {
        await o.backlog?.wait(abort.signal);
        idle = false;
        continue;
      }
      let pause = 0;
      try {
        if (idle && !(await hasDueRows(o.store.db))) {
          if (abort.signal.aborted) break;
          await sleep(o.pollIntervalMs, abort.signal);
          continue;
        }
        const r = await relayOnce(o);
        idle = r.claimed === 0;
        if (r.claimed >= o.batchSize) o.backlog?.notify();
        else if (o.helper) idle = true; // the backlog is drained (or failing): back to waiting
        if (r.claimed === 0) {
          pause = o.pollIntervalMs;
          failuresInARow = 0;
        } else if (r.sent === 0 && r.failed + r.parked > 0) pause = o.policy.delayMs(++failuresInARow);
        else failuresInARow = 0;
      } catch (err) {
        // The store itself failed (claim or completion). Claimed rows keep their lease and are
        // reclaimed after it expires; back off so a down store is not hammered.
        idle = o.helper === true;
        pause = o.policy.delayMs(++failuresInARow);
        o.logger.warn({ ...labels, error: summarizeError(err) }, 'outbox relay iteration failed; backing off');
      }
      if (pause && !(o.helper && idle)) await sleep(pause, abort.signal);
    }
  })();
  return {
    done,
    async stop() {
      abort.abort();
      await done;
    },
  };
}
