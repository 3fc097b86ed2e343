// The outbox_events table of one store as the relay engine's port (relayPort/publicationTable.ts).
// Its states are the documented outbox model: NEW -> PROCESSING (claimed; the claim counts as an
// attempt, so a row whose relays keep crashing is parked) -> SENT, or FAILED (retry at next_retry_at)
// and PARKED (attempts used up; an operator replays it: operator.ts). Each operation is one SQL file
// under sql/; relayPass adds the state-change notices of each transition.
import type { PublicationStore, PublicationTable, RelayStatements, RelayStates } from '../relayPort/publicationTable';
import { relayPass } from '../relayPort/relayPass';
import { claimBatch } from './sql/claimBatch';
import { hasDueRows } from './sql/hasDueRows';
import { markFailed } from './sql/markFailed';
import { markSent } from './sql/markSent';
import { releaseClaim } from './sql/releaseClaim';

const STATES: RelayStates = { claimed: 'PROCESSING', sent: 'SENT', failed: 'FAILED', gaveUp: 'PARKED' };

export function fromOutboxTable(store: PublicationStore): PublicationTable {
  const db = store.db;
  const statements: RelayStatements = {
    hasDue: () => hasDueRows(db),
    claim: (req) => claimBatch(db, req),
    markSent: (token, ids) => markSent(db, token, ids),
    markFailed: (token, group) => markFailed(db, token, group),
    release: (token, records, delayMs, error) => releaseClaim(db, token, records, delayMs, error),
  };
  return {
    table: 'outbox_events',
    store,
    gaveUpState: STATES.gaveUp,
    hasDue: statements.hasDue,
    pass: (notices, clock) => relayPass(statements, STATES, notices, clock),
  };
}
