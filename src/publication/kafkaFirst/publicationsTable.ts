// The event_publications table of one store as the relay engine's port (relayPort/publicationTable.ts).
// Its states are the documented kafka-first model: NOT_PUBLISHED (a fallback row waiting; a claim is a
// lease on it, not a state) -> PUBLISHED on broker acknowledgement, or DEAD_LETTER when a record keeps
// failing on its own (the third relay failure by default); an outage never counts. Claims never give
// up rows (a crashed relay's claim just expires). Each operation is one SQL file under sql/; relayPass
// adds the state-change notices of each transition.
import type { PublicationStore, PublicationTable, RelayStatements, RelayStates } from '../relayPort/publicationTable';
import { relayPass } from '../relayPort/relayPass';
import type { KafkaFirstMetrics } from './metrics';
import { claimNextBatch } from './sql/claimNextBatch';
import { hasDuePublications } from './sql/hasDuePublications';
import { markPublished } from './sql/markPublished';
import { markRelayFailure } from './sql/markRelayFailure';
import { publicationBacklog } from './sql/publicationBacklog';
import { releaseClaim } from './sql/releaseClaim';

const STATES: RelayStates = { claimed: null, sent: 'PUBLISHED', failed: 'NOT_PUBLISHED', gaveUp: 'DEAD_LETTER' };

export function fromPublicationsTable(store: PublicationStore): PublicationTable {
  const db = store.db;
  const statements: RelayStatements = {
    hasDue: () => hasDuePublications(db),
    claim: (req) => claimNextBatch(db, req),
    markSent: (token, ids) => markPublished(db, token, ids),
    markFailed: (token, group) => markRelayFailure(db, token, group),
    release: (token, records, delayMs, error) => releaseClaim(db, token, records, delayMs, error),
  };
  return {
    table: 'event_publications',
    store,
    gaveUpState: STATES.gaveUp,
    hasDue: statements.hasDue,
    pass: (notices, clock) => relayPass(statements, STATES, notices, clock),
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
