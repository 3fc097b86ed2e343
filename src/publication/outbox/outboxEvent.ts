// A claimed outbox row as the relay handles it: the stored Kafka record and its delivery facts.
import { OUTBOX_TABLE } from './outboxRow';
import type { RelayRecord } from '../relayPort/publicationTable';
import { CLAIMED_COLUMNS, relayRecordOf, type ClaimedRowColumns } from '../relayPort/relayRecord';

export { OUTBOX_TABLE };

export interface OutboxRowSelected extends ClaimedRowColumns {
  attempts: number;
  status: 'NEW' | 'FAILED' | 'PROCESSING';
}

export const SELECTED_COLUMNS = [...CLAIMED_COLUMNS, 'attempts', 'status'] as const;

/** The row as claimed; `attempts` is bumped by one because the claim itself counts as an attempt. */
export function outboxRecordOf(r: OutboxRowSelected, claimCounts = true): RelayRecord {
  return relayRecordOf(r, { attempts: Number(r.attempts) + (claimCounts ? 1 : 0), from: r.status });
}
