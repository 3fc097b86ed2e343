// Operator views and actions on the outbox of every store: the keyset-paginated list of PARKED events
// and their replay. Replay returns rows to NEW with their original eventId, version and stored record;
// the relays then deliver them. The stores go in a fixed order (publicationStores: PostgreSQL, then
// each fitness shard), each oldest first by (created_at, event_id). A page's position is (store index,
// created_at, event_id) of its last event; the next page goes on in that store after it, then in the
// following stores.
import type { Domain } from '../event';
import type { PublicationStore } from '../stores';
import { stateChangeOf, type StateChangeSink } from '../stateChanges/stateChange';
import type { Clock } from '../../shared/clock';
import { storeLabels, type OutboxMetrics } from './metrics';
import { listParked, type ParkedEvent, type ParkedKey } from './sql/listParked';
import { replayParked, type ParkedFilter, type ReplayedEvent } from './sql/replayParked';

export const MAX_OPERATOR_BATCH = 1000;

export interface StoreFilter extends ParkedFilter {
  store?: PublicationStore['kind'];
  shard?: number;
}

export interface ParkedPosition extends ParkedKey {
  store: number;
}

export type ParkedPageEvent = ParkedEvent & { store: string; shard: number; position: ParkedPosition };

export interface ParkedEventPages {
  listParkedPage(filter: StoreFilter, first: number, after?: ParkedPosition): Promise<ParkedPageEvent[]>;
}

export interface OutboxOperator {
  replayParked(filter: StoreFilter, limit: number): Promise<(ReplayedEvent & { store: string; shard: number })[]>;
}

const inFilter = (s: PublicationStore, f: StoreFilter) =>
  (f.store === undefined || s.kind === f.store) && (f.shard === undefined || s.shard === f.shard);

/** The one list of PARKED events (a read: no notices, no metrics). */
export function parkedEventPages(stores: readonly PublicationStore[]): ParkedEventPages {
  return {
    async listParkedPage(filter, first, after) {
      const out: ParkedPageEvent[] = [];
      for (let i = after?.store ?? 0; i < stores.length && out.length < first; i++) {
        const s = stores[i]!;
        if (!inFilter(s, filter)) continue;
        const rows = await listParked(s.db, filter, first - out.length, after && after.store === i ? after : undefined);
        for (const e of rows)
          out.push({ ...e, store: s.kind, shard: s.shard, position: { store: i, createdAt: e.createdAt, eventId: e.eventId } });
      }
      return out;
    },
  };
}

/** Replays PARKED events (PARKED -> NEW), counting them and notifying subscribers of each. */
export function outboxOperator(
  stores: readonly PublicationStore[],
  opts: { metrics?: OutboxMetrics; stateChanges: StateChangeSink; clock: Clock },
): OutboxOperator {
  const bounded = (limit: number) => Math.min(Math.max(1, Math.trunc(limit)), MAX_OPERATOR_BATCH);
  return {
    async replayParked(filter, limit) {
      const out: (ReplayedEvent & { store: string; shard: number })[] = [];
      for (const s of stores.filter((x) => inFilter(x, filter))) {
        if (out.length >= bounded(limit)) break;
        const replayed = await replayParked(s.db, filter, bounded(limit) - out.length);
        if (replayed.length) opts.metrics?.replayed.inc(storeLabels(s), replayed.length);
        const at = opts.clock.now();
        opts.stateChanges.emit(replayed.map((e) => stateChangeOf({ ...e, domain: e.domain as Domain }, 'PARKED', 'NEW', 0, at)));
        for (const e of replayed) out.push({ ...e, store: s.kind, shard: s.shard });
      }
      return out;
    },
  };
}
