// What the relay engine counts, per table and store. Each table keeps the metric names operators and
// dashboards already use (outbox: tidemark_outbox_*; event_publications: tidemark_kafka_first_relay_*),
// so the one engine reports through a small adapter per table; the outage counters are shared.
import type { Registry } from 'prom-client';
import { counter } from '../metrics/registry';
import type { PublicationStore, TableName } from './publicationTable';

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
