// The one port the relay engine drives: a publication table in one store. Two tables implement it,
// each keeping its documented columns and states:
//   outbox_events       NEW / PROCESSING / SENT / FAILED / PARKED   (outbox/outboxTable.ts)
//   event_publications  NOT_PUBLISHED / PUBLISHED / DEAD_LETTER     (kafkaFirst/publicationsTable.ts)
// Every operation is one guarded statement or one short transaction (the SQL files say how they lock);
// every completion is guarded by the claim, so a relay whose lease was taken over changes nothing.
import type { Domain } from '../publication/event';
import type { ObservedState } from '../publication/stateChanges/stateChange';
import type { SafeErrorSummary } from '../shared/redact';
import type { PublicationStore } from '../publication/stores';

export type { PublicationStore };

export type TableName = 'outbox_events' | 'event_publications';

/** A claimed row as the relay publishes it: the stored Kafka record and its delivery facts. */
export interface RelayRecord {
  id: number;
  eventId: string;
  domain: Domain;
  aggregateId: string;
  version: number;
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  /** Attempts that count against the record, including the one this claim makes. */
  attempts: number;
  /** The state it had when claimed (for live notifications). */
  from: ObservedState;
  /** How long ago the row was stored, by the database clock (for the last-resort give-up age). */
  ageMs: number;
  /** The W3C traceparent of the write that stored it (null when tracing was off). */
  traceparent: string | null;
}

export interface Claim {
  /** Opaque handle every completion of this claim must present. */
  token: string;
  records: RelayRecord[];
  /** Rows taken over from an expired lease. */
  reclaimed: number;
  /** Rows given up while claiming (the outbox parks rows whose leases expired too often). */
  gaveUp: RelayRecord[];
}

/** Rows of one claim that failed alike: one guarded UPDATE each. */
export interface FailureGroup {
  records: RelayRecord[];
  /** PARKED / DEAD_LETTER instead of a later retry. */
  giveUp: boolean;
  /** Delay before the next attempt (ignored when giving up). */
  delayMs: number;
  error: SafeErrorSummary;
}

export interface ClaimRequest {
  token: string;
  owner: string;
  leaseMs: number;
  limit: number;
  /** True when `attempts` used attempts mean a row may not be tried again. */
  giveUp(attempts: number): boolean;
}

export interface PublicationTable {
  readonly table: TableName;
  readonly store: PublicationStore;
  /** The states this table uses for each step of the engine (for notifications). */
  readonly states: { claimed: ObservedState | null; sent: ObservedState; failed: ObservedState; gaveUp: ObservedState };
  /** A cheap look: is anything due? (an idle relay asks this instead of running a claim). */
  hasDue(): Promise<boolean>;
  claim(req: ClaimRequest): Promise<Claim>;
  /** The broker acknowledged them; returns how many this claim still held. */
  markSent(token: string, ids: number[]): Promise<number>;
  /** A record failure: counts against the records (retry later, or give up). */
  markFailed(token: string, group: FailureGroup): Promise<number>;
  /** An outage: the rows go back for a later attempt without spending one. */
  release(token: string, records: RelayRecord[], delayMs: number, error: SafeErrorSummary): Promise<number>;
}
