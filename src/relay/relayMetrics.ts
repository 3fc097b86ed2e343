// What the relay engine counts, per table and store. Each table keeps the metric names operators and
// dashboards already use (outbox: tidemark_outbox_*; event_publications: tidemark_kafka_first_relay_*),
// so the one engine reports through a small adapter per table; the outage counters are shared. The
// metric families themselves are the tables' owners' (publication/outbox/metrics.ts and
// publication/kafkaFirst/metrics.ts): operator views and gauges count into them too.
import type { Registry } from 'prom-client';
import { counter } from '../metrics/registry';
import { kafkaFirstMetrics } from '../publication/kafkaFirst/metrics';
import { outboxMetrics, storeLabels } from '../publication/outbox/metrics';
import type { PublicationStore, TableName } from '../publication/relayPort/publicationTable';

export interface RelayMetrics {
  claimed(n: number): void;
  reclaimed(n: number): void;
  sent(n: number): void;
  failed(n: number): void;
  gaveUp(n: number): void;
  released(n: number): void;
  claimLost(n: number): void;
  /** Starts timing a publish; call the result with its outcome. */
  publishTimer(): (outcome: 'ok' | 'failed') => void;
}

/** Rows an outage sent back without spending an attempt, for either table. */
export function releasedCounter(registry: Registry, table: TableName, store: PublicationStore): (n: number) => void {
  const c = counter(registry, {
    name: 'tidemark_relay_released_total',
    help: 'Claimed publication rows returned without spending an attempt because the Kafka cluster failed (an outage, not poison).',
    labelNames: ['table', 'store'],
  });
  return (n) => {
    if (n) c.inc({ table, store: store.name }, n);
  };
}

/** The engine's counters for one store's outbox, under the tidemark_outbox_* names. */
export function outboxRelayMetrics(registry: Registry, store: PublicationStore): RelayMetrics {
  const m = outboxMetrics(registry);
  const labels = storeLabels(store);
  const add = (c: { inc(l: typeof labels, n: number): void }) => (n: number) => {
    if (n) c.inc(labels, n);
  };
  return {
    claimed: add(m.claimed),
    reclaimed: add(m.reclaimedExpired),
    sent: add(m.sent),
    failed: add(m.failed),
    gaveUp: add(m.parked),
    released: releasedCounter(registry, 'outbox_events', store),
    claimLost: add(m.claimLost),
    publishTimer: () => {
      const end = m.publishSeconds.startTimer(labels);
      return (outcome) => end({ outcome });
    },
  };
}

/** The engine's counters for one store's event_publications, as tidemark_kafka_first_relay_outcomes_total. */
export function publicationsRelayMetrics(registry: Registry, store: PublicationStore): RelayMetrics {
  const m = kafkaFirstMetrics(registry).relay;
  const add = (result: 'published' | 'failure' | 'dead_letter' | 'claim_lost') => (n: number) => {
    if (n) m.inc({ store: store.name, result }, n);
  };
  return {
    claimed: () => undefined,
    reclaimed: () => undefined,
    sent: add('published'),
    failed: add('failure'),
    gaveUp: add('dead_letter'),
    released: releasedCounter(registry, 'event_publications', store),
    claimLost: add('claim_lost'),
    publishTimer: () => () => undefined,
  };
}
