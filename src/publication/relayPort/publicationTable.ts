// The one port the relay engine (src/relay) drives: a publication table in one store. The publication
// layer owns both tables and implements it, each keeping its documented columns and states:
//   outbox_events       NEW / PROCESSING / SENT / FAILED / PARKED   (outbox/outboxTable.ts)
//   event_publications  NOT_PUBLISHED / PUBLISHED / DEAD_LETTER     (kafkaFirst/publicationsTable.ts)
// Every operation is one guarded statement or one short transaction (the SQL files say how they lock);
// every completion is guarded by the claim, so a relay whose lease was taken over changes nothing.
// The engine decides what happens to a claimed row; the table makes the transition and tells the
// operators (state-change notices are built and emitted here, in the publication layer, never by
// the relay): a relay pass (relayPass.ts) collects them and sends them as one message when it ends.
import type { Domain } from '../event';
import type { PublicationState } from '../publisher';
import type { ObservedState, StateChangeSink } from '../stateChanges/stateChange';
import type { Clock } from '../../shared/clock';
import type { SafeErrorSummary } from '../../shared/redact';
import type { PublicationStore } from '../stores';

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

/** A table's raw statements for the relay, one SQL file each (no notices: relayPass.ts adds them). */
export interface RelayStatements {
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

/** The states a table uses for each step of the engine (claimed: null when a claim is only a lease). */
export interface RelayStates {
  claimed: PublicationState | null;
  sent: PublicationState;
  failed: PublicationState;
  gaveUp: PublicationState;
}

/** The transitions of one relay pass over one claim; each returns how many rows this claim still held. */
export interface RelayPass {
  claim(req: ClaimRequest): Promise<Claim>;
  /** The broker acknowledged them at `publishedAt`. */
  markSent(token: string, records: RelayRecord[], publishedAt: Date): Promise<number>;
  markFailed(token: string, group: FailureGroup): Promise<number>;
  release(token: string, records: RelayRecord[], delayMs: number, error: SafeErrorSummary): Promise<number>;
  /** The pass is over: its notices go out together (one message, not one per transition). */
  end(): void;
}

export interface PublicationTable {
  readonly table: TableName;
  readonly store: PublicationStore;
  /** Where a given-up row goes (PARKED / DEAD_LETTER), for the engine's log. */
  readonly gaveUpState: PublicationState;
  hasDue(): Promise<boolean>;
  /** Starts a relay pass whose notices go to `notices`, stamped by `clock`. */
  pass(notices: StateChangeSink, clock: Clock): RelayPass;
}
