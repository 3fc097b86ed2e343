// The event_publications table of one store as the relay engine's port (publicationTable.ts). Its
// states are the documented kafka-first model: NOT_PUBLISHED (a fallback row waiting; a claim is a
// lease on it, not a state) -> PUBLISHED on broker acknowledgement, or DEAD_LETTER when a record keeps
// failing on its own (the third relay failure by default); an outage never counts. Claims never give
// up rows (a crashed relay's claim just expires). Each operation is one SQL file in this folder.
import type { Registry } from 'prom-client';
import { kafkaFirstMetrics, type KafkaFirstMetrics } from '../../publication/kafkaFirst/metrics';
import type { PublicationStore, PublicationTable } from '../publicationTable';
import { releasedCounter, type RelayMetrics } from '../relayMetrics';
import { claimNextBatch } from './claimNextBatch';
import { hasDuePublications } from './hasDuePublications';
import { markPublished } from './markPublished';
import { markRelayFailure } from './markRelayFailure';
import { publicationBacklog } from './publicationBacklog';
import { releaseClaim } from './releaseClaim';

export function fromPublicationsTable(store: PublicationStore): PublicationTable {
  const db = store.db;
  return {
    table: 'event_publications',
    store,
    states: { claimed: null, sent: 'PUBLISHED', failed: 'NOT_PUBLISHED', gaveUp: 'DEAD_LETTER' },
    hasDue: () => hasDuePublications(db),
    claim: (req) => claimNextBatch(db, req),
    markSent: (token, ids) => markPublished(db, token, ids),
    markFailed: (token, group) => markRelayFailure(db, token, group),
    release: (token, records, delayMs, error) => releaseClaim(db, token, records, delayMs, error),
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
