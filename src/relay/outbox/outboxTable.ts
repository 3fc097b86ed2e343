// The outbox_events table of one store as the relay engine's port (publicationTable.ts). Its states
// are the documented outbox model: NEW -> PROCESSING (claimed; the claim counts as an attempt, so a
// row whose relays keep crashing is parked) -> SENT, or FAILED (retry at next_retry_at) and PARKED
// (attempts used up; an operator replays it). Each operation is one SQL file under sql/.
import type { Registry } from 'prom-client';
import type { PublicationStore, PublicationTable } from '../publicationTable';
import { releasedCounter, type RelayMetrics } from '../relayMetrics';
import { outboxMetrics, storeLabels } from './metrics';
import { claimBatch } from './sql/claimBatch';
import { hasDueRows } from './sql/hasDueRows';
import { markFailed } from './sql/markFailed';
import { markSent } from './sql/markSent';
import { releaseClaim } from './sql/releaseClaim';

export function fromOutboxTable(store: PublicationStore): PublicationTable {
  const db = store.db;
  return {
    table: 'outbox_events',
    store,
    states: { claimed: 'PROCESSING', sent: 'SENT', failed: 'FAILED', gaveUp: 'PARKED' },
    hasDue: () => hasDueRows(db),
    claim: (req) => claimBatch(db, req),
    markSent: (token, ids) => markSent(db, token, ids),
    markFailed: (token, group) => markFailed(db, token, group),
    release: (token, records, delayMs, error) => releaseClaim(db, token, records, delayMs, error),
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
