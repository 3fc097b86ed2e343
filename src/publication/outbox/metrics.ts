// Prometheus metrics of the outbox path. Labels are bounded: `store` is mysql|postgres and `shard`
// is a configured shard index (at most 100), `outcome` is ok|failed.
import type { Counter, Gauge, Histogram } from 'prom-client';
import { counter, gauge, histogram, type Registry } from '../../metrics/registry';
import type { PublicationStore } from '../stores';

/** The outbox metrics' labels of a store: its engine and shard index. */
export function storeLabels(s: Pick<PublicationStore, 'kind' | 'shard'>): { store: string; shard: string } {
  return { store: s.kind, shard: String(s.shard) };
}

type L = 'store' | 'shard';

export interface OutboxMetrics {
  claimed: Counter<L>;
  sent: Counter<L>;
  failed: Counter<L>;
  parked: Counter<L>;
  reclaimedExpired: Counter<L>;
  claimLost: Counter<L>;
  replayed: Counter<L>;
  cleanedUp: Counter<L>;
  publishSeconds: Histogram<L | 'outcome'>;
  oldestUnsentSeconds: Gauge<L>;
  events: Gauge<L | 'status'>;
  expiredClaims: Gauge<L>;
}

export function outboxMetrics(r: Registry): OutboxMetrics {
  const labelNames = ['store', 'shard'] as const;
  return {
    claimed: counter(r, {
      name: 'tidemark_outbox_claimed_total',
      help: 'Outbox rows claimed by a relay (including reclaims of expired leases).',
      labelNames,
    }),
    sent: counter(r, {
      name: 'tidemark_outbox_sent_total',
      help: 'Outbox rows the broker acknowledged (acks=all) and that were marked SENT.',
      labelNames,
    }),
    failed: counter(r, {
      name: 'tidemark_outbox_failed_total',
      help: 'Outbox publish attempts that failed and were scheduled for retry (FAILED).',
      labelNames,
    }),
    parked: counter(r, {
      name: 'tidemark_outbox_parked_total',
      help: 'Outbox rows PARKED after their attempt limit; each needs an operator replay.',
      labelNames,
    }),
    reclaimedExpired: counter(r, {
      name: 'tidemark_outbox_expired_claims_reclaimed_total',
      help: 'PROCESSING rows whose lease expired and that another claim took over.',
      labelNames,
    }),
    claimLost: counter(r, {
      name: 'tidemark_outbox_claim_lost_total',
      help: 'Completions that matched no row because the claim token no longer owned it (lease lost); the newer owner was not overwritten.',
      labelNames,
    }),
    replayed: counter(r, {
      name: 'tidemark_outbox_replayed_total',
      help: 'PARKED rows returned to NEW by an operator replay.',
      labelNames,
    }),
    cleanedUp: counter(r, { name: 'tidemark_outbox_cleaned_up_total', help: 'SENT rows deleted after the retention period.', labelNames }),
    publishSeconds: histogram(r, {
      name: 'tidemark_outbox_publish_duration_seconds',
      help: 'Time to publish one claimed batch to Kafka, by outcome.',
      labelNames: ['store', 'shard', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
    oldestUnsentSeconds: gauge(r, {
      name: 'tidemark_outbox_oldest_unsent_age_seconds',
      help: 'Age of the oldest NEW, PROCESSING or FAILED outbox row (0 when none).',
      labelNames,
    }),
    expiredClaims: gauge(r, {
      name: 'tidemark_outbox_expired_claims',
      help: 'PROCESSING outbox rows whose lease expired (a relay died or stalled); the next claim takes them over.',
      labelNames,
    }),
    events: gauge(r, {
      name: 'tidemark_outbox_events',
      help: 'Outbox rows per status (NEW, PROCESSING, FAILED, PARKED); alert on PARKED > 0.',
      labelNames: ['store', 'shard', 'status'],
    }),
  };
}
