// Operator operations over every store's event_publications: a paged, merged view of one domain, and
// the replay of DEAD_LETTER rows. What leaves here is safe to show: no payload, no headers, and error
// text re-redacted on the way out (defence in depth: it was already redacted when stored).
import type { Clock } from '../../shared/clock';
import { ValidationError } from '../../shared/errors';
import { summarizeError } from '../../shared/redact';
import { replayDeadLetters } from '../../relay/kafkaFirst/replayDeadLetters';
import type { Domain } from '../event';
import type { StateChangeSink } from '../stateChanges/stateChange';
import { listPublicationsInStore, type PagePosition, type PublicationView } from './listPublications';
import type { KafkaFirstMetrics } from './metrics';
import type { PublicationStatus } from './publicationRow';
import { storesOf, type PublicationStore } from './stores';

export const MAX_PAGE = 200;
export const MAX_REPLAY = 1000;

export interface PublicationPage {
  nodes: PublicationView[];
  endCursor: string | null;
  hasNextPage: boolean;
}

export interface KafkaFirstOperations {
  list(q: { domain: Domain; status?: PublicationStatus; first: number; after?: string | null }): Promise<PublicationPage>;
  replayDeadLetters(f: { domain: Domain; eventIds?: string[] | null; limit: number }): Promise<string[]>;
}

export function encodeCursor(p: PagePosition): string {
  return Buffer.from(JSON.stringify([p.createdAtMs, p.store, p.id])).toString('base64url');
}

export function decodeCursor(cursor: string): PagePosition {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 3 && v.every((n) => Number.isSafeInteger(n) && n >= 0)) return { createdAtMs: v[0], store: v[1], id: v[2] };
  } catch {
    // fall through
  }
  throw new ValidationError('after', 'after is not a cursor returned by this query');
}

function safe(v: PublicationView): PublicationView {
  if (v.lastErrorSummary == null) return v;
  const again = summarizeError({ code: v.lastErrorCode ?? 'UNKNOWN', message: v.lastErrorSummary });
  return { ...v, lastErrorCode: again.code, lastErrorSummary: again.summary };
}

export function kafkaFirstOperations(deps: { stores: readonly PublicationStore[]; clock: Clock; metrics?: KafkaFirstMetrics; stateChanges?: StateChangeSink }): KafkaFirstOperations {
  const indexOf = (s: PublicationStore) => deps.stores.indexOf(s);
  return {
    async list(q) {
      if (!Number.isInteger(q.first) || q.first < 1 || q.first > MAX_PAGE) throw new ValidationError('first', `first must be between 1 and ${MAX_PAGE}`);
      const after = q.after ? decodeCursor(q.after) : undefined;
      const stores = storesOf(deps.stores, q.domain);
      const pages = await Promise.all(
        stores.map(async (s) =>
          (await listPublicationsInStore(s.db, { storeIndex: indexOf(s), domain: q.domain, status: q.status, after, limit: q.first + 1 })).map((v) => ({ v, store: indexOf(s) })),
        ),
      );
      const merged = pages
        .flat()
        .sort((a, b) => a.v.createdAt.getTime() - b.v.createdAt.getTime() || a.store - b.store || a.v.id - b.v.id);
      const page = merged.slice(0, q.first);
      const last = page[page.length - 1];
      return {
        nodes: page.map((x) => safe(x.v)),
        endCursor: last ? encodeCursor({ createdAtMs: last.v.createdAt.getTime(), store: last.store, id: last.v.id }) : null,
        hasNextPage: merged.length > q.first,
      };
    },

    async replayDeadLetters(f) {
      if (!Number.isInteger(f.limit) || f.limit < 1 || f.limit > MAX_REPLAY) throw new ValidationError('limit', `limit must be between 1 and ${MAX_REPLAY}`);
      if (f.eventIds && f.eventIds.length > MAX_REPLAY) throw new ValidationError('eventIds', `at most ${MAX_REPLAY} eventIds per replay`);
      if (f.eventIds?.some((id) => id.length > 191 || /[\u0000-\u001f]/.test(id))) throw new ValidationError('eventIds', 'an eventId is longer than 191 characters or holds control characters');
      const replayed: string[] = [];
      for (const s of storesOf(deps.stores, f.domain)) {
        const left = f.limit - replayed.length;
        if (left <= 0) break;
        const rows = await replayDeadLetters(s.db, { domain: f.domain, eventIds: f.eventIds ?? undefined, limit: left });
        replayed.push(...rows.map((r) => r.eventId));
        deps.stateChanges?.emit(
          rows.map((r) => ({ eventId: r.eventId, domain: f.domain, aggregateId: r.aggregateId, version: r.version, from: 'DEAD_LETTER' as const, to: 'NOT_PUBLISHED' as const, attempt: 0, at: deps.clock.now() })),
        );
      }
      if (replayed.length) deps.metrics?.replays.inc({ domain: f.domain }, replayed.length);
      return replayed;
    },
  };
}
