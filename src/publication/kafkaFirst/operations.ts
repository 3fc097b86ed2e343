// Operator operations over every store's event_publications: a paged, merged view of one domain, and
// the replay of DEAD_LETTER rows. What leaves here is safe to show: no payload, no headers, and error
// text re-redacted on the way out (defence in depth: it was already redacted when stored).
import type { Clock } from '../../shared/clock';
import { hasControlCharacters } from '../../shared/controlCharacters';
import { decodeCursor, encodeCursor, pageSize } from '../../shared/cursor';
import { ValidationError } from '../../shared/errors';
import { summarizeError } from '../../shared/redact';
import { replayDeadLetters } from './sql/replayDeadLetters';
import type { Domain } from '../event';
import { stateChangeOf, type StateChangeSink } from '../stateChanges/stateChange';
import { listPublicationsInStore, type PagePosition, type PublicationView } from './listPublications';
import type { KafkaFirstMetrics } from './metrics';
import type { PublicationStatus } from './publicationRow';
import { storesOf, type PublicationStore } from '../stores';

export const MAX_PAGE = 200;
export const MAX_REPLAY = 1000;

export interface PublicationPage {
  nodes: PublicationView[];
  /** The cursor of each node (same order): `after` one of them continues below it. */
  cursors: string[];
  endCursor: string | null;
  hasNextPage: boolean;
}

export interface KafkaFirstOperations {
  list(q: { domain: Domain; status?: PublicationStatus; first: number; after?: string | null }): Promise<PublicationPage>;
  replayDeadLetters(f: { domain: Domain; eventIds?: string[] | null; limit: number }): Promise<string[]>;
}

const positionKey = (p: PagePosition) => [p.createdAtMs, p.store, p.id] as const;
const isPositionKey = (v: unknown): v is [number, number, number] =>
  Array.isArray(v) && v.length === 3 && v.every((n) => Number.isSafeInteger(n) && n >= 0);

export const encodePosition = (p: PagePosition): string => encodeCursor(positionKey(p));

export function decodePosition(cursor: string | null | undefined): PagePosition | undefined {
  const v = decodeCursor(cursor, isPositionKey);
  return v && { createdAtMs: v[0], store: v[1], id: v[2] };
}

function safe(v: PublicationView): PublicationView {
  if (v.lastErrorSummary == null) return v;
  const again = summarizeError({ code: v.lastErrorCode ?? 'UNKNOWN', message: v.lastErrorSummary });
  return { ...v, lastErrorCode: again.code, lastErrorSummary: again.summary };
}

export function kafkaFirstOperations(deps: {
  stores: readonly PublicationStore[];
  clock: Clock;
  metrics?: KafkaFirstMetrics;
  stateChanges: StateChangeSink;
}): KafkaFirstOperations {
  const indexOf = (s: PublicationStore) => deps.stores.indexOf(s);
  return {
    async list(q) {
      const first = pageSize(q.first, MAX_PAGE);
      const after = decodePosition(q.after);
      const stores = storesOf(deps.stores, q.domain);
      const pages = await Promise.all(
        stores.map(async (s) =>
          (
            await listPublicationsInStore(s.db, { storeIndex: indexOf(s), domain: q.domain, status: q.status, after, limit: first + 1 })
          ).map((v) => ({ v, store: indexOf(s) })),
        ),
      );
      const merged = pages.flat().sort((a, b) => a.v.createdAt.getTime() - b.v.createdAt.getTime() || a.store - b.store || a.v.id - b.v.id);
      const page = merged.slice(0, first);
      const cursors = page.map((x) => encodePosition({ createdAtMs: x.v.createdAt.getTime(), store: x.store, id: x.v.id }));
      return {
        nodes: page.map((x) => safe(x.v)),
        cursors,
        endCursor: cursors[cursors.length - 1] ?? null,
        hasNextPage: merged.length > first,
      };
    },

    async replayDeadLetters(f) {
      if (!Number.isInteger(f.limit) || f.limit < 1 || f.limit > MAX_REPLAY)
        throw new ValidationError('limit', `limit must be between 1 and ${MAX_REPLAY}`);
      if (f.eventIds && f.eventIds.length > MAX_REPLAY) throw new ValidationError('eventIds', `at most ${MAX_REPLAY} eventIds per replay`);
      if (f.eventIds?.some((id) => id.length > 191 || hasControlCharacters(id)))
        throw new ValidationError('eventIds', 'an eventId is longer than 191 characters or holds control characters');
      const replayed: string[] = [];
      for (const s of storesOf(deps.stores, f.domain)) {
        const left = f.limit - replayed.length;
        if (left <= 0) break;
        const rows = await replayDeadLetters(s.db, { domain: f.domain, eventIds: f.eventIds ?? undefined, limit: left });
        replayed.push(...rows.map((r) => r.eventId));
        const at = deps.clock.now();
        deps.stateChanges.emit(rows.map((r) => stateChangeOf({ ...r, domain: f.domain }, 'DEAD_LETTER', 'NOT_PUBLISHED', 0, at)));
      }
      if (replayed.length) deps.metrics?.replays.inc({ domain: f.domain }, replayed.length);
      return replayed;
    },
  };
}
