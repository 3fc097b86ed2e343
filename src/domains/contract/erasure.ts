// The erasure part of a domain module, and the ports every store's erasure implements. An erasure
// removes one person (a student, a customer) from every store Tidemark writes: the domain's source
// store (its own folder knows the tables), the Kafka topics, the ClickHouse projection and the
// reconciliation ledger. The runner (src/erasure/runner.ts) drives the stores through one job and never
// asks which domain or which store it holds: each store erases what it can, then searches itself and
// reports what it searched and what it found, which becomes that store's line of the certificate.
import type { Clock } from '../../shared/clock';
import type { Domain } from '../../shared/domain';
import type { DomainStores } from './reconciliation';

/** Whose data an erasure removes: a student's fitness results, or a customer's identity on orders. */
export type ErasureKind = 'student' | 'customer';

/**
 * What an erasure removes (student: every row, event and projection of the student's results) or
 * replaces (customer: the identifier, by `subjectHash`, on rows whose financial facts are kept).
 */
export type ErasureMode = 'delete' | 'pseudonymise';

/** One erasure as the stores see it: whose, which aggregates, and the keyed hash that stands for the subject. */
export interface ErasureJob {
  readonly erasureId: string;
  readonly kind: ErasureKind;
  readonly mode: ErasureMode;
  /** The person's id as the domain spells it (a student's userId, a customer's id). Never logged or stored by the ledger. */
  readonly subjectId: string;
  readonly domain: Domain;
  /**
   * The aggregate ids the source held for the subject when the erasure started (collected once, kept in
   * the ledger): later stores erase exactly these, so a student who comes back with new results is not
   * erased by the old request.
   */
  readonly aggregateIds: readonly string[];
  /** HMAC of (kind, subjectId) under the erasure key: the audit record's and the pseudonym's value. */
  readonly subjectHash: string;
  /** When the erasure was requested; rows written after it are not the request's business. */
  readonly startedAt: Date;
}

/** What one erase step did: how many rows/records it touched, and whether this store needs no more steps. */
export interface StoreStepResult {
  affected: number;
  /** False: call erase again later (a compaction or a mutation still has to run); the runner retries. */
  done: boolean;
  /** A short, non-personal remark for the operator ("waiting for compaction of 2 partitions"). */
  note?: string;
}

/** One store's line of the certificate: what was searched, when, and how many readable traces were found. */
export interface StoreSearch {
  store: string;
  /** What was searched, by name: tables per shard, topics from the earliest offset, ClickHouse tables. */
  searched: readonly string[];
  searchedAt: Date;
  /** Readable traces of the subject found; 0 is the only value a certificate may be issued on. */
  found: number;
  note?: string;
}

/** One store's erasure: erase (idempotent, resumable, may need several calls) and verify (a read-only search). */
export interface StoreErasure {
  /** The store's name on the certificate: 'mysql', 'postgres', 'kafka', 'clickhouse', 'reconciliation-ledger'. */
  readonly store: string;
  erase(job: ErasureJob): Promise<StoreStepResult>;
  verify(job: ErasureJob): Promise<StoreSearch>;
}

/** The domain's source store: it also finds the subject's aggregates, and is erased first. */
export interface SourceErasure extends StoreErasure {
  /** Every aggregate id the source holds for the subject (results of a student, orders of a customer). */
  collect(subjectId: string): Promise<string[]>;
  /** A subject id as the domain accepts it; undefined: well-formed (the caller turns a message into a typed error). */
  checkSubject(subjectId: string): string | undefined;
}

/** A domain's erasure: whose data it holds, how, and its source store's erasure. */
export interface DomainErasure {
  readonly subject: ErasureKind;
  readonly mode: ErasureMode;
  /**
   * The event data field that names the subject (fitness: userId, orders: customerId): the Kafka and
   * ClickHouse stores pseudonymise or match on it without knowing the domain.
   */
  readonly subjectField: string;
  /**
   * Event data fields naming who wrote a version (orders: changedBy, the placing token subject), which
   * name the subject too when they hold its id (a customer placing for itself): a pseudonymisation
   * replaces them where they equal the subject's id, and leaves other writers (an operator) alone.
   */
  readonly writerFields?: readonly string[];
  source(stores: DomainStores, clock: Clock): SourceErasure;
}

/**
 * The erased aggregates every writer of the read side consults (the projector, a dead-letter replay, a
 * rebuild, a repair) so that an old event in flight or a replay never brings an erased one back, and
 * reconciliation counts them as expected-absent. Implemented over ClickHouse's erased_aggregates
 * (src/projections/erased), cached and refreshed every ERASURE_GUARD_REFRESH_MS.
 */
export interface ErasedAggregates {
  /** Which of these aggregate ids of the domain have been erased. */
  erasedAmong(domain: Domain, aggregateIds: readonly string[]): Promise<ReadonlySet<string>>;
  /**
   * Which of these aggregate ids of the domain are pseudonymised, each with its pseudonym: a writer
   * rewrites their subject column instead of dropping them (financial rows stay). Optional: a guard
   * without it pseudonymises nothing. erasedAmong never lists these (they stay compared and repairable).
   */
  pseudonymsAmong?(domain: Domain, aggregateIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

/** Nothing is erased: the default of a component built without the guard (unit tests, tools). */
export const noErasedAggregates: ErasedAggregates = { erasedAmong: async () => new Set() };

/** The keyed pseudonym that replaces a subject's identifier (mode 'pseudonymise'): same on every store. */
export const pseudonymOf = (job: Pick<ErasureJob, 'subjectHash'>): string => `anon-${job.subjectHash.slice(0, 24)}`;
