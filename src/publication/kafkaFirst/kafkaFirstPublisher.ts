// The kafka-first Publisher: the caller's transaction writes only its business rows; after commit each
// event is sent directly (publishDirect: 3 attempts, bounded time). While the process's Kafka circuit
// is open (the cluster is known to be unreachable or hanging) no attempt is made: the fallback row is
// stored at once, so an outage costs an order one insert instead of KAFKA_FIRST_DEADLINE_MS. Direct
// attempts that all fail because of the cluster open the circuit; one that succeeds closes it; while
// open, the circuit's own prober asks the cluster at a bounded rate. Outcomes per event:
//   PUBLISHED_DIRECT       the broker acknowledged; no publication row is written.
//   NOT_PUBLISHED          no acknowledgement (failure or timeout = unknown); a fallback row was upserted
//                          by event_id in the same store as the business rows, for the relay.
//   FALLBACK_STORE_FAILED  the fallback write failed too: the business write stands, a metric and a
//                          safe log record it, and the reconciler rebuilds the row after its grace period.
// Works on PostgreSQL and MySQL alike (the store is whatever `db` the caller commits on).
import type { Knex } from 'knex';
import type { Topics } from '../../infra/kafka/fromKafka';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import { toKafkaRecord, type DomainEvent } from '../event';
import type { PublicationOutcome, PublicationState, Publisher, UnitOfWork } from '../publisher';
import { stateChangeOf, type StateChangeSink } from '../stateChanges/stateChange';
import { publishDirect, type DirectPolicy, type DirectReport } from './directPublish';
import type { DirectOutcome, KafkaFirstMetrics } from './metrics';
import { publicationRowFor, topicForDomain } from './publicationRow';
import type { RecordSender } from './recordSender';
import { withTimeout } from '../../shared/timeout';
import { currentTraceparent, failSpan, SpanKind, withSpan } from '../../shared/tracing';
import { withTransactionSpan } from '../transactionSpan';
import type { KafkaCircuit } from '../../infra/kafka/kafkaCircuit';
import { upsertNotPublished } from './upsertNotPublished';

export interface KafkaFirstPublisherDeps {
  sender: RecordSender;
  topics: Topics;
  policy: DirectPolicy;
  fallbackTimeoutMs: number;
  clock: Clock;
  metrics: KafkaFirstMetrics;
  logger: Logger;
  sleep?: (ms: number) => Promise<void>;
  /** The process's belief about the cluster, shared with the relays. */
  circuit: KafkaCircuit;
  /** Live operator notifications: each event's first state (PUBLISHED_DIRECT, NOT_PUBLISHED, FALLBACK_STORE_FAILED). */
  stateChanges: StateChangeSink;
}

export function fromKafkaFirstPublisher(deps: KafkaFirstPublisherDeps): Publisher {
  function outcome(event: DomainEvent, state: PublicationState, attempts: number): PublicationOutcome {
    deps.stateChanges.emit([stateChangeOf(event, null, state, attempts, deps.clock.now())]);
    return { eventId: event.eventId, state };
  }

  async function publishOne(db: Knex, event: DomainEvent): Promise<PublicationOutcome> {
    const topic = topicForDomain(deps.topics, event.domain);
    let report: DirectReport = { delivered: false, results: [], failureKinds: [] };
    if (deps.circuit.state === 'open') deps.metrics.circuitSkips.inc({ domain: event.domain });
    else {
      report = await withSpan(
        'kafka-first.direct',
        { kind: SpanKind.PRODUCER, attributes: { 'messaging.destination.name': topic } },
        async (span) => {
          // The message carries this send's trace, so the projector continues it.
          const base = toKafkaRecord(event);
          const traceparent = currentTraceparent();
          const record = traceparent ? { ...base, headers: { ...base.headers, traceparent } } : base;
          const r = await publishDirect((timeoutMs) => deps.sender.send(topic, record, timeoutMs), deps.policy, {
            clock: deps.clock,
            sleep: deps.sleep,
            onAttempt: (result) => deps.metrics.directAttempts.inc({ domain: event.domain, result }),
          });
          span.setAttribute('tidemark.direct.attempts', r.results.length);
          if (!r.delivered) failSpan(span, r.lastError);
          return r;
        },
      );
      if (report.delivered) {
        deps.circuit.succeeded();
        deps.metrics.outcomes.inc({ domain: event.domain, outcome: 'published_direct' });
        return outcome(event, 'PUBLISHED_DIRECT', report.results.length);
      }
      if (report.failureKinds.every((k) => k === 'outage')) deps.circuit.failed(report.lastError);
    }
    const result: DirectOutcome = report.results.length === 0 ? 'circuit_open' : report.results.includes('timeout') ? 'timeout' : 'failure';
    const direct = { attempts: report.results.length, result };
    try {
      const row = publicationRowFor(event, deps.topics, 'DIRECT_FALLBACK', direct);
      const stored = await withTimeout(upsertNotPublished(db, row), deps.fallbackTimeoutMs, 'fallback store');
      deps.metrics.fallbackStores.inc({ domain: event.domain, result: stored.inserted ? 'stored' : 'already_present' });
      deps.metrics.outcomes.inc({ domain: event.domain, outcome: 'fallback_stored' });
      if (report.results.length)
        deps.logger.warn(
          {
            eventId: event.eventId,
            domain: event.domain,
            directAttempts: direct.attempts,
            directResult: direct.result,
            error: summarizeError(report.lastError),
          },
          'direct publish did not succeed; fallback publication row stored for the relay',
        );
      return outcome(event, stored.status, direct.attempts);
    } catch (err) {
      deps.metrics.fallbackStores.inc({ domain: event.domain, result: 'failed' });
      deps.metrics.outcomes.inc({ domain: event.domain, outcome: 'fallback_store_failed' });
      // Safe log: ids and redacted summaries only, never the payload or raw exception text.
      deps.logger.error(
        {
          eventId: event.eventId,
          domain: event.domain,
          aggregateId: event.aggregateId,
          directResult: direct.result,
          publishError: summarizeError(report.lastError),
          storeError: summarizeError(err),
        },
        'kafka-first fallback store failed; the publication reconciler will rebuild the row after its grace period',
      );
      return outcome(event, 'FALLBACK_STORE_FAILED', direct.attempts);
    }
  }

  async function publishAll<T>(db: Knex, { result, events }: UnitOfWork<T>) {
    const publications: PublicationOutcome[] = [];
    // One event after another, so an aggregate's versions are attempted in order. (A fallback can still
    // reorder them in Kafka; events are full snapshots with their version, so consumers keep the latest.)
    for (const event of events) publications.push(await publishOne(db, event));
    return { result, publications };
  }

  return {
    strategy: 'kafka-first',
    async commit(db, work) {
      return publishAll(db, await withTransactionSpan(db, 'kafka-first', () => db.transaction(work)));
    },
    async commitSingleWrite(db, work) {
      // Kafka-first adds no row to the business write, so one statement needs no BEGIN/COMMIT.
      return publishAll(db, await withTransactionSpan(db, 'kafka-first', () => work(db)));
    },
  };
}
