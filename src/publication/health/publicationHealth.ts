// The operator's one-look answer to "is anything stuck?": per domain, per store, the backlog of both
// publication tables (outbox_events and event_publications: a store may hold either, whichever
// strategy a domain uses), with the domain's projection lag and reconciliation state beside it.
// Every figure comes from persisted state (tables, Kafka offsets, checkpoints), so any gateway
// instance answers the same; ages are measured by each database's own clock.
// The reconciliation figures are passed in (reconciliation/ledger/ledgerHealth.ts reads them): the
// reconciliation layer sits above this one.
import type { Domain } from '../event';
import { readOutboxStats } from '../outbox/sql/outboxStats';
import { publicationBacklog } from '../kafkaFirst/sql/publicationBacklog';
import type { PublicationStore } from '../stores';

export interface StorePublicationHealth {
  store: string;
  /** Waiting to be published: outbox NEW + PROCESSING, kafka-first NOT_PUBLISHED. */
  pending: number;
  /** Outbox rows whose last attempt failed and that wait for their retry time. */
  failed: number;
  /** Outbox rows out of attempts; need an operator replay. */
  parked: number;
  /** Kafka-first rows out of relay attempts; need an operator replay. */
  deadLettered: number;
  /** Claims whose lease expired (a relay died or stalled); the next claim takes them. */
  expiredClaims: number;
  /** Age of the oldest unsent row in seconds (0 when nothing waits). */
  oldestUnsentAgeSeconds: number;
}

export interface DomainPublicationHealth {
  domain: Domain;
  stores: StorePublicationHealth[];
  /** How far the projection is behind the source (ms), null when unknown. */
  projectionLagMs: number | null;
  unresolvedDiscrepancies: number | null;
  repairsAwaitingVerification: number | null;
  /** Age of the oldest CLEAN CONTENT verification among the domain's registered scopes, seconds. */
  oldestVerificationAgeSeconds: number | null;
  /** Registered scopes never verified CLEAN at CONTENT level. */
  scopesNeverVerified: number | null;
  /** Which event schema version this process writes and why (the gate); null when it has none. */
  eventSchema: EventSchemaHealth | null;
}

/** The schema version gate's view of a domain (src/publication/schemaVersionGate.ts, docs/upgrades.md). */
export interface EventSchemaHealth {
  /** The version this process writes the domain's events in now. */
  writing: number;
  /** The newest version this process knows (its code, or EVENT_SCHEMA_VERSION_CAP). */
  newestKnown: number;
  /** The newest version every live projector member announced it reads; null until the group was seen Stable. */
  readersAgree: number | null;
}

/** What the reconciliation ledger says about a domain. */
export type ReconciliationHealth = Pick<
  DomainPublicationHealth,
  'unresolvedDiscrepancies' | 'repairsAwaitingVerification' | 'oldestVerificationAgeSeconds' | 'scopesNeverVerified'
>;

export interface PublicationHealthDeps {
  stores: readonly PublicationStore[];
  projectionLagMs?: (domain: Domain) => Promise<number | null>;
  reconciliation?: (domain: Domain) => Promise<ReconciliationHealth>;
  /** The process's schema version gate (synchronous: a cached view). */
  eventSchema?: (domain: Domain) => EventSchemaHealth;
}

async function storeHealth(s: PublicationStore, domain: Domain): Promise<StorePublicationHealth> {
  const [outbox, backlog] = await Promise.all([readOutboxStats(s.db), publicationBacklog(s.db)]);
  const kf = backlog.find((b) => b.domain === domain);
  return {
    store: s.name,
    pending: outbox.counts.NEW + outbox.counts.PROCESSING + (kf?.notPublished ?? 0),
    failed: outbox.counts.FAILED,
    parked: outbox.counts.PARKED,
    deadLettered: kf?.deadLetters ?? 0,
    expiredClaims: outbox.expiredClaims + (kf?.expiredClaims ?? 0),
    oldestUnsentAgeSeconds: Math.max(outbox.oldestUnsentAgeSeconds, kf?.oldestNotPublishedAgeSeconds ?? 0),
  };
}

function eventSchemaOf(d: PublicationHealthDeps, domain: Domain): EventSchemaHealth | null {
  if (!d.eventSchema) return null;
  const { writing, newestKnown, readersAgree } = d.eventSchema(domain);
  return { writing, newestKnown, readersAgree };
}

export async function readPublicationHealth(d: PublicationHealthDeps, only?: Domain): Promise<DomainPublicationHealth[]> {
  // Every domain some store holds (the stores list them: src/publication/stores.ts).
  const domains = only ? [only] : [...new Set(d.stores.flatMap((s) => s.domains))];
  return Promise.all(
    domains.map(async (domain) => {
      const [stores, lag, rec] = await Promise.all([
        Promise.all(d.stores.filter((s) => s.domains.includes(domain)).map((s) => storeHealth(s, domain))),
        d.projectionLagMs ? d.projectionLagMs(domain).catch(() => null) : Promise.resolve(null),
        d.reconciliation ? d.reconciliation(domain).catch(() => null) : Promise.resolve(null),
      ]);
      return {
        domain,
        stores,
        projectionLagMs: lag,
        unresolvedDiscrepancies: rec?.unresolvedDiscrepancies ?? null,
        repairsAwaitingVerification: rec?.repairsAwaitingVerification ?? null,
        oldestVerificationAgeSeconds: rec?.oldestVerificationAgeSeconds ?? null,
        scopesNeverVerified: rec?.scopesNeverVerified ?? null,
        eventSchema: eventSchemaOf(d, domain),
      };
    }),
  );
}
