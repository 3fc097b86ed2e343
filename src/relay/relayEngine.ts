// The one relay engine, for both publication tables (publicationTable.ts): claim a batch (short
// transaction, SKIP LOCKED, lease from the database clock), publish it outside any transaction, then
// complete it guarded by the claim. Safe with any number of relay loops and processes per store.
//   after claim, before publish      -> rows stay claimed; the lease expires; another claim takes them
//   broker took it, ack lost/timeout -> retried later (a duplicate, never a loss)
//   after publish, before completion -> lease expires, reclaimed, published again (a duplicate)
// Failures are classified (publishFailure.ts). An OUTAGE releases the rows without spending an attempt
// and opens the process's Kafka circuit: the loops stop claiming until a probe finds the cluster
// answering, then resume with a small batch that doubles per good pass (catch-up is paced, not a
// burst). A RECORD failure spends the record's attempt: retry after the RetryPolicy's backoff, and give
// up (PARKED / DEAD_LETTER) when it says so. An UNKNOWN failure is the record's when another record of
// the pass got through or the cluster answers a probe, else an outage. Past the last-resort age
// (RELAY_GIVE_UP_AGE_HOURS) any failure gives up, with the reason code RELAY_GIVE_UP_AGE.
import type { KafkaCircuit } from '../infra/kafka/kafkaCircuit';
import { stateChangeOf, type StateChange, type StateChangeSink } from '../publication/stateChanges/stateChange';
import type { Clock, IdGenerator } from '../shared/clock';
import { sleep, type Stoppable } from '../shared/lifecycle';
import type { Logger } from '../shared/logger';
import { summarizeError, type SafeErrorSummary } from '../shared/redact';
import { publishTimeout, withTimeout } from '../shared/timeout';
import { failSpan, SpanKind, startSpanFrom, traceparentOfSpan, tracingEnabled, type Span } from '../shared/tracing';
import type { RetryPolicy } from '../shared/backoff';
import type { BacklogSignal } from './backlogSignal';
import { allFailed, type EventSink, type PublishResult } from './kafkaSink';
import type { Claim, FailureGroup, PublicationTable, RelayRecord } from './publicationTable';
import type { RelayMetrics } from './relayMetrics';

export type RelayStage = 'claimed' | 'published' | 'completed';

export interface RelayDeps {
  sink: EventSink;
  /** This process's belief about the cluster, shared with every other publisher in it. */
  circuit: KafkaCircuit;
  /** Record failures: backoff before the next attempt and when to give up. */
  policy: RetryPolicy;
  /**
   * The loop's own store failing (claim, completion): the pause before the next iteration. An outage,
   * never a record's fault, so capped like a Kafka outage: a shard server back after a minute is
   * published from within this ceiling, not after a record's long backoff (default: `policy`).
   */
  storeBackoff?: RetryPolicy;
  /** Last resort: a failing record older than this gives up whatever the failure (0: never). */
  giveUpAgeMs: number;
  batchSize: number;
  pollIntervalMs: number;
  leaseMs: number;
  publishTimeoutMs: number;
  /** This process's name, stored with each claim. */
  owner: string;
  ids: IdGenerator;
  clock: Clock;
  metrics: RelayMetrics;
  logger: Logger;
  /** Live operator notifications of each transition (best effort; the table is the record). */
  stateChanges: StateChangeSink;
  /** Observer of each stage of a batch (tracing; crash tests stop the process here). */
  onStage?: (stage: RelayStage, claim: Claim) => void | Promise<void>;
}

export interface BatchReport {
  claimed: number;
  reclaimed: number;
  sent: number;
  /** Record failures scheduled for a retry. */
  failed: number;
  /** PARKED / DEAD_LETTER (attempts used up, or the last-resort age). */
  gaveUp: number;
  /** Rows returned without spending an attempt because the cluster failed. */
  released: number;
  claimLost: number;
  /** The pass met an outage (the circuit is open). */
  outage: boolean;
}

/** The lease must outlast a publish, or a slow but healthy publish is reclaimed and sent twice. */
export function relayProblems(o: Pick<RelayDeps, 'leaseMs' | 'publishTimeoutMs' | 'batchSize' | 'pollIntervalMs'>): string[] {
  const problems: string[] = [];
  if (!(o.leaseMs > o.publishTimeoutMs))
    problems.push(`lease (${o.leaseMs} ms) must be longer than the publish timeout (${o.publishTimeoutMs} ms)`);
  if (!(o.batchSize >= 1)) problems.push('batch size must be at least 1');
  if (!(o.pollIntervalMs >= 1)) problems.push('poll interval must be at least 1 ms');
  return problems;
}

const AGE_CODE = 'RELAY_GIVE_UP_AGE';

/**
 * With tracing on, each record whose write was traced gets a `relay.send` span continuing that trace,
 * and its message carries the span's traceparent (for the projector). Without, the records go as they are.
 */
function traceSends(table: PublicationTable, records: RelayRecord[]): { records: RelayRecord[]; end(result: PublishResult): void } {
  if (!tracingEnabled()) return { records, end: () => undefined };
  const spans = new Map<number, Span>();
  const out = records.map((r) => {
    const attributes = {
      'messaging.destination.name': r.topic,
      'tidemark.table': table.table,
      'tidemark.event_id': r.eventId,
      'tidemark.attempt': r.attempts,
    };
    const span = startSpanFrom(r.traceparent ?? undefined, 'relay.send', { kind: SpanKind.PRODUCER, attributes });
    if (!span) return r;
    spans.set(r.id, span);
    const traceparent = traceparentOfSpan(span);
    return traceparent ? { ...r, headers: { ...r.headers, traceparent } } : r;
  });
  return {
    records: out,
    end(result) {
      for (const f of result.failed) {
        const span = spans.get(f.id);
        if (span) failSpan(span, f.error);
      }
      for (const span of spans.values()) span.end();
    },
  };
}

/** One group per (give up?, attempts, error code): rows in a group share outcome, delay and summary. */
export function failureGroups(
  failed: { record: RelayRecord; error: SafeErrorSummary }[],
  d: Pick<RelayDeps, 'policy' | 'giveUpAgeMs'>,
): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const { record, error } of failed) {
    const old = d.giveUpAgeMs > 0 && record.ageMs >= d.giveUpAgeMs;
    const giveUp = old || d.policy.giveUp(record.attempts);
    const err = old
      ? { code: AGE_CODE, summary: `still failing after the last-resort age; last error ${error.code}: ${error.summary}`.slice(0, 255) }
      : error;
    const key = `${giveUp}|${record.attempts}|${err.code}`;
    const g = groups.get(key) ?? { records: [], giveUp, delayMs: giveUp ? 0 : d.policy.delayMs(record.attempts), error: err };
    g.records.push(record);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** Claims, publishes and completes one batch of `table`. */
export async function relayOnce(table: PublicationTable, d: RelayDeps, limit = d.batchSize): Promise<BatchReport> {
  const claim = await table.claim({ token: d.ids.uuid(), owner: d.owner, leaseMs: d.leaseMs, limit, giveUp: (n) => d.policy.giveUp(n) });
  const report: BatchReport = {
    claimed: claim.records.length,
    reclaimed: claim.reclaimed,
    sent: 0,
    failed: 0,
    gaveUp: claim.gaveUp.length,
    released: 0,
    claimLost: 0,
    outage: false,
  };
  const { states } = table;
  const changes: StateChange[] = [];
  const at = () => d.clock.now();
  if (claim.gaveUp.length) {
    d.metrics.gaveUp(claim.gaveUp.length);
    for (const r of claim.gaveUp) changes.push(stateChangeOf(r, r.from, states.gaveUp, r.attempts, at()));
    d.logger.warn(
      {
        table: table.table,
        store: table.store.name,
        eventIds: claim.gaveUp.slice(0, 20).map((r) => r.eventId),
        count: claim.gaveUp.length,
      },
      'publications given up while claiming: their claims expired too often',
    );
  }
  if (claim.records.length === 0) {
    d.stateChanges.emit(changes);
    return report;
  }
  d.metrics.claimed(claim.records.length);
  if (claim.reclaimed) d.metrics.reclaimed(claim.reclaimed);
  if (states.claimed) d.stateChanges.emit(claim.records.map((r) => stateChangeOf(r, r.from, states.claimed!, r.attempts, at())));
  await d.onStage?.('claimed', claim);

  const endTimer = d.metrics.publishTimer();
  const traced = traceSends(table, claim.records);
  // The relay bounds the publish itself too, whatever the sink does, so a claim is always completed
  // (or abandoned) before its lease can run out under a healthy relay.
  const result = await withTimeout(
    d.sink.publish(traced.records),
    d.publishTimeoutMs,
    () => publishTimeout(d.publishTimeoutMs),
  ).catch((error: unknown): PublishResult => allFailed(claim.records, error));
  // SENT happened when the broker acknowledged, not when the row was marked afterwards: by then a
  // projector may already have applied the message, and state changes are ordered by their time.
  const publishedAt = at();
  traced.end(result);
  endTimer(result.failed.length ? 'failed' : 'ok');
  await d.onStage?.('published', claim);
  const from = states.claimed;
  const byId = new Map(claim.records.map((r) => [r.id, r]));

  if (result.sent.length) {
    d.circuit.succeeded();
    const marked = await table.markSent(claim.token, result.sent);
    report.sent = marked;
    report.claimLost += result.sent.length - marked;
    d.metrics.sent(marked);
    // Notifications only when the completion fully held (with a lost claim we cannot tell which rows).
    if (marked === result.sent.length)
      for (const id of result.sent)
        changes.push(stateChangeOf(byId.get(id)!, from ?? byId.get(id)!.from, states.sent, byId.get(id)!.attempts, publishedAt));
  }

  if (result.failed.length) {
    const kinds = new Set(result.failed.map((f) => f.kind));
    // Unknown failures are the records' own when the cluster demonstrably works.
    let unknownIs: 'record' | 'outage' = 'record';
    if (kinds.has('unknown') && result.sent.length === 0)
      unknownIs = kinds.has('outage') ? 'outage' : (await d.circuit.probe()) ? 'record' : 'outage';
    const outage = result.failed.filter((f) => f.kind === 'outage' || (f.kind === 'unknown' && unknownIs === 'outage'));
    const recordFailures = result.failed.filter((f) => !(f.kind === 'outage' || (f.kind === 'unknown' && unknownIs === 'outage')));
    if (outage.length) {
      report.outage = result.sent.length === 0;
      if (report.outage) d.circuit.failed(outage[0]!.error);
      const error = summarizeError(outage[0]!.error);
      const tooOld = (f: (typeof outage)[number]) => d.giveUpAgeMs > 0 && byId.get(f.id)!.ageMs >= d.giveUpAgeMs;
      const old = outage.filter(tooOld);
      const release = outage.filter((f) => !tooOld(f)).map((f) => byId.get(f.id)!);
      if (release.length) {
        const n = await table.release(claim.token, release, d.policy.delayMs(1), error);
        report.released += n;
        report.claimLost += release.length - n;
        d.metrics.released(n);
        if (n === release.length && states.claimed)
          for (const r of release) changes.push(stateChangeOf(r, from!, states.failed, r.attempts - 1, at()));
      }
      recordFailures.push(...old);
    }
    const failed = recordFailures.map((f) => ({ record: byId.get(f.id)!, error: summarizeError(f.error) }));
    for (const g of failureGroups(failed, d)) {
      const n = await table.markFailed(claim.token, g);
      report.claimLost += g.records.length - n;
      if (n === g.records.length)
        for (const r of g.records)
          changes.push(stateChangeOf(r, from ?? r.from, g.giveUp ? states.gaveUp : states.failed, r.attempts, at()));
      if (g.giveUp) {
        report.gaveUp += n;
        d.metrics.gaveUp(n);
        d.logger.error(
          {
            table: table.table,
            store: table.store.name,
            eventIds: g.records.slice(0, 20).map((r) => r.eventId),
            count: n,
            errorCode: g.error.code,
          },
          `publications moved to ${states.gaveUp}; an operator replay is needed once the cause is fixed`,
        );
      } else {
        report.failed += n;
        d.metrics.failed(n);
      }
    }
  }
  if (report.claimLost) {
    d.metrics.claimLost(report.claimLost);
    d.logger.warn(
      { table: table.table, store: table.store.name, count: report.claimLost },
      'completions lost their claim (lease expired and was taken over); left to the new owner',
    );
  }
  d.stateChanges.emit(changes);
  await d.onStage?.('completed', claim);
  return report;
}

export interface RelayLoop extends Stoppable {
  /** Resolves when the loop has ended (after stop()). */
  readonly done: Promise<void>;
}

export interface RelayLoopOptions {
  /**
   * Extra loops on a store share one backlog signal: the first loop polls; a helper sleeps until some
   * loop claims a full batch, works while its own claims come back full, and sleeps again, so an idle
   * store costs one loop's polling however many loops drain a backlog.
   */
  backlog?: BacklogSignal;
  helper?: boolean;
}

/**
 * Runs relayOnce in a loop until stop(); stop() lets the in-flight batch finish (drain). An idle loop
 * first looks (hasDue, one cheap statement) and claims only when there is something to take. While the
 * circuit is open it claims nothing; when it closes, batches start at 1/16 of the batch size and double
 * after every pass that delivered, so a backlog built during an outage is caught up at a growing pace.
 */
export function startRelayLoop(table: PublicationTable, d: RelayDeps, o: RelayLoopOptions = {}): RelayLoop {
  if (o.helper && !o.backlog) throw new Error('a helper relay loop needs the backlog signal that wakes it');
  const abort = new AbortController();
  const slowStart = Math.max(1, Math.ceil(d.batchSize / 16));
  let limit = d.batchSize;
  let storeFailures = 0;
  let idle = o.helper === true;
  const done = (async () => {
    while (!abort.signal.aborted) {
      if (d.circuit.state === 'open') {
        await d.circuit.whenClosed(abort.signal);
        limit = slowStart;
        idle = o.helper === true;
        continue;
      }
      if (o.helper && idle) {
        await o.backlog!.wait(abort.signal);
        idle = false;
        continue;
      }
      let pause = 0;
      try {
        if (idle && !(await table.hasDue())) {
          if (!abort.signal.aborted) await sleep(d.pollIntervalMs, abort.signal);
          continue;
        }
        const r = await relayOnce(table, d, limit);
        storeFailures = 0;
        idle = r.claimed === 0;
        if (r.sent > 0) limit = Math.min(d.batchSize, limit * 2);
        if (r.claimed >= d.batchSize) o.backlog?.notify();
        else if (o.helper) idle = true; // the backlog is drained (or failing): back to waiting
        if (r.claimed === 0) pause = d.pollIntervalMs;
      } catch (err) {
        // The store itself failed (claim or completion). Claimed rows keep their lease and are
        // reclaimed after it expires; back off so a down store is not hammered.
        idle = o.helper === true;
        pause = (d.storeBackoff ?? d.policy).delayMs(++storeFailures);
        d.logger.warn({ table: table.table, store: table.store.name, error: summarizeError(err) }, 'relay iteration failed; backing off');
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
