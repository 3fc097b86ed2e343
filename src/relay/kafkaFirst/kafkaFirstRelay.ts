// The kafka-first relay: per store (PostgreSQL and every fitness shard), claim a batch of due
// NOT_PUBLISHED rows, publish each stored record outside any transaction, then complete each row under
// its claim: PUBLISHED on broker acknowledgement, otherwise a counted failure with backoff, and
// DEAD_LETTER when the RetryPolicy gives up (the third failure by default). Many relay processes can
// run at once: SKIP LOCKED claims never hand one row to two live claims, and owner-guarded completions
// stop a relay whose claim expired from overwriting the new owner. `stop()` finishes the batch in
// flight (completions included) before resolving.
import type { IdGenerator, Clock } from '../../shared/clock';
import { sleep, type Stoppable } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import type { KafkaFirstMetrics } from '../../publication/kafkaFirst/metrics';
import type { RecordSender } from '../../publication/kafkaFirst/recordSender';
import type { PublicationStore } from '../../publication/kafkaFirst/stores';
import type { StateChange, StateChangeSink } from '../../publication/stateChanges/stateChange';
import { withTimeout } from '../../publication/kafkaFirst/timeout';
import type { RetryPolicy } from '../backoff';
import { claimNextBatch } from './claimNextBatch';
import { decideRelayFailure } from './decideRelayFailure';
import { markPublished } from './markPublished';
import { markRelayFailure } from './markRelayFailure';
import { publicationBacklog } from './publicationBacklog';

export interface KafkaFirstRelayDeps {
  sender: RecordSender;
  /** giveUp(n) decides DEAD_LETTER; delayMs(n) the backoff before the next attempt. */
  policy: RetryPolicy;
  instanceId: string;
  ids: IdGenerator;
  clock: Clock;
  leaseMs: number;
  publishTimeoutMs: number;
  batchSize: number;
  pollIntervalMs: number;
  statsIntervalMs: number;
  metrics: KafkaFirstMetrics;
  logger: Logger;
  /** Live operator notifications of relay transitions. */
  stateChanges?: StateChangeSink;
}

export interface RelayPassResult {
  claimed: number;
  published: number;
  failed: number;
  deadLettered: number;
  claimLost: number;
}

/** One claim-publish-complete pass over one store. */
export async function relayOnce(store: PublicationStore, deps: KafkaFirstRelayDeps): Promise<RelayPassResult> {
  const result: RelayPassResult = { claimed: 0, published: 0, failed: 0, deadLettered: 0, claimLost: 0 };
  // A fresh token per claim: even this same process cannot complete a row through an older claim.
  const owner = `${deps.instanceId}:${deps.ids.uuid()}`.slice(0, 128);
  const rows = await claimNextBatch(store.db, { owner, leaseMs: deps.leaseMs, limit: deps.batchSize });
  result.claimed = rows.length;
  if (rows.length === 0) return result;

  const sent = await Promise.allSettled(
    rows.map((r) =>
      withTimeout(deps.sender.send(r.topic, { key: r.messageKey, value: r.messageValue, headers: r.headers }, deps.publishTimeoutMs), deps.publishTimeoutMs, 'relay publish'),
    ),
  );
  const ok = rows.filter((_, i) => sent[i]!.status === 'fulfilled');
  const marked = await markPublished(store.db, owner, ok.map((r) => r.id));
  result.published = marked;
  result.claimLost += ok.length - marked;
  const changes: StateChange[] = [];
  const change = (r: (typeof rows)[number], to: StateChange['to'], attempt: number): StateChange => ({
    eventId: r.eventId, domain: r.domain, aggregateId: r.aggregateId, version: r.version, from: 'NOT_PUBLISHED', to, attempt, at: deps.clock.now(),
  });
  // Only when every acknowledged row was still ours do we know which ones became PUBLISHED.
  if (marked === ok.length) for (const r of ok) changes.push(change(r, 'PUBLISHED', r.relayAttempts + 1));

  for (let i = 0; i < rows.length; i++) {
    const s = sent[i]!;
    if (s.status === 'fulfilled') continue;
    const row = rows[i]!;
    const decision = decideRelayFailure(row.relayAttempts, deps.policy);
    const error = summarizeError(s.reason);
    const held = await markRelayFailure(store.db, owner, row.id, decision, error);
    if (!held) {
      result.claimLost++;
      continue;
    }
    changes.push(change(row, decision.status, decision.relayAttempts));
    if (decision.status === 'DEAD_LETTER') {
      result.deadLettered++;
      deps.logger.error({ store: store.name, eventId: row.eventId, relayAttempts: decision.relayAttempts, error }, 'publication moved to DEAD_LETTER; operator replay needed');
    } else result.failed++;
  }

  deps.stateChanges?.emit(changes);
  const m = deps.metrics.relay;
  if (result.published) m.inc({ store: store.name, result: 'published' }, result.published);
  if (result.failed) m.inc({ store: store.name, result: 'failure' }, result.failed);
  if (result.deadLettered) m.inc({ store: store.name, result: 'dead_letter' }, result.deadLettered);
  if (result.claimLost) m.inc({ store: store.name, result: 'claim_lost' }, result.claimLost);
  return result;
}

/** Refreshes the backlog gauges of one store (zero for its domains without unfinished rows). */
export async function refreshBacklogGauges(store: PublicationStore, metrics: KafkaFirstMetrics): Promise<void> {
  const rows = await publicationBacklog(store.db);
  const domains = new Set([...store.domains, ...rows.map((r) => r.domain)]);
  for (const domain of domains) {
    const b = rows.find((r) => r.domain === domain);
    const labels = { store: store.name, domain };
    metrics.notPublished.set(labels, b?.notPublished ?? 0);
    metrics.oldestNotPublishedAge.set(labels, b?.oldestNotPublishedAgeSeconds ?? 0);
    metrics.deadLetters.set(labels, b?.deadLetters ?? 0);
    metrics.expiredClaims.set(labels, b?.expiredClaims ?? 0);
  }
}

export function startKafkaFirstRelay(stores: readonly PublicationStore[], deps: KafkaFirstRelayDeps): Stoppable {
  const ac = new AbortController();
  const loops = stores.map(async (store) => {
    let statsAt = Number.NEGATIVE_INFINITY;
    while (!ac.signal.aborted) {
      let claimed = 0;
      try {
        claimed = (await relayOnce(store, deps)).claimed;
      } catch (err) {
        deps.logger.error({ store: store.name, error: summarizeError(err) }, 'kafka-first relay pass failed; retrying after the poll interval');
      }
      const now = deps.clock.now().getTime();
      if (now - statsAt >= deps.statsIntervalMs) {
        statsAt = now;
        await refreshBacklogGauges(store, deps.metrics).catch((err) => deps.logger.warn({ store: store.name, error: summarizeError(err) }, 'backlog gauges not refreshed'));
      }
      // A full batch means more rows are probably due: go again at once.
      if (claimed < deps.batchSize) await sleep(deps.pollIntervalMs, ac.signal);
    }
  });
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        ac.abort();
        await Promise.all(loops);
      })();
      return stopped;
    },
  };
}
