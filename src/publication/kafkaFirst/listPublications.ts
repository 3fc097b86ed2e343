// The operator view of event_publications in one store: a page of rows of one domain (optionally one
// status), oldest first by (created_at, id), after a keyset position. Only safe columns are selected:
// never message_value or headers (the raw payload), and the error columns only ever hold redacted
// summaries. A plain snapshot read without locks; an operator page never blocks a relay.
import type { DirectOutcome } from './metrics';
import type { Knex } from 'knex';
import type { Domain } from '../event';
import type { PublicationSource, PublicationStatus } from './publicationRow';

export interface PublicationView {
  id: number;
  eventId: string;
  domain: Domain;
  aggregateId: string;
  version: number;
  status: PublicationStatus;
  source: PublicationSource;
  directAttempts: number;
  directResult: DirectOutcome | null;
  relayAttempts: number;
  replayCount: number;
  nextAttemptAt: Date;
  claimExpiresAt: Date | null;
  createdAt: Date;
  publishedAt: Date | null;
  lastErrorCode: string | null;
  lastErrorSummary: string | null;
}

/** Keyset position across stores: rows sort by (created_at, store index, id). */
export interface PagePosition {
  createdAtMs: number;
  store: number;
  id: number;
}

const SAFE_COLUMNS = [
  'id',
  'event_id',
  'domain',
  'aggregate_id',
  'version',
  'status',
  'source',
  'direct_attempts',
  'direct_result',
  'relay_attempts',
  'replay_count',
  'next_attempt_at',
  'claim_expires_at',
  'created_at',
  'published_at',
  'last_error_code',
  'last_error_summary',
];

type Row = Record<(typeof SAFE_COLUMNS)[number], unknown>;

const date = (v: unknown) => (v == null ? null : new Date(v as string));

function toView(r: Row): PublicationView {
  return {
    id: Number(r.id),
    eventId: String(r.event_id),
    domain: r.domain as Domain,
    aggregateId: String(r.aggregate_id),
    version: Number(r.version),
    status: r.status as PublicationStatus,
    source: r.source as PublicationSource,
    directAttempts: Number(r.direct_attempts),
    directResult: (r.direct_result as PublicationView['directResult']) ?? null,
    relayAttempts: Number(r.relay_attempts),
    replayCount: Number(r.replay_count),
    nextAttemptAt: date(r.next_attempt_at)!,
    claimExpiresAt: date(r.claim_expires_at),
    createdAt: date(r.created_at)!,
    publishedAt: date(r.published_at),
    lastErrorCode: (r.last_error_code as string | null) ?? null,
    lastErrorSummary: (r.last_error_summary as string | null) ?? null,
  };
}

export async function listPublicationsInStore(
  db: Knex,
  o: { storeIndex: number; domain: Domain; status?: PublicationStatus; after?: PagePosition; limit: number },
): Promise<PublicationView[]> {
  const q = db('event_publications').select(SAFE_COLUMNS).where('domain', o.domain);
  if (o.status) q.andWhere('status', o.status);
  const a = o.after;
  if (a) {
    const t = new Date(a.createdAtMs);
    // Rows of later stores at the same instant come after the cursor; of earlier stores, before it.
    if (o.storeIndex > a.store) q.andWhere('created_at', '>=', t);
    else if (o.storeIndex < a.store) q.andWhere('created_at', '>', t);
    else q.andWhere((w) => w.where('created_at', '>', t).orWhere((x) => x.where('created_at', '=', t).andWhere('id', '>', a.id)));
  }
  const rows = (await q.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(o.limit)) as Row[];
  return rows.map(toView);
}
