// The operator's keyset-paginated list of PARKED outbox events over every store: the stores in a
// fixed order (publicationStores: PostgreSQL, then each fitness shard), each oldest first by (created_at, event_id).
// A page's position is (store index, created_at, event_id) of its last event; the next page goes on
// in that store after it, then in the following stores.
import type { PublicationStore } from '../stores';
import { listParked, type ParkedEvent, type ParkedKey } from '../../relay/outbox/sql/listParked';
import type { StoreFilter } from '../../relay/outbox/operator';

export interface ParkedPosition extends ParkedKey {
  store: number;
}

export type ParkedPageEvent = ParkedEvent & { store: string; shard: number; position: ParkedPosition };

export interface ParkedEventPages {
  listParkedPage(filter: StoreFilter, first: number, after?: ParkedPosition): Promise<ParkedPageEvent[]>;
}

export function parkedEventPages(stores: readonly PublicationStore[]): ParkedEventPages {
  return {
    async listParkedPage(filter, first, after) {
      const out: ParkedPageEvent[] = [];
      for (let i = after?.store ?? 0; i < stores.length && out.length < first; i++) {
        const s = stores[i]!;
        if ((filter.store !== undefined && s.kind !== filter.store) || (filter.shard !== undefined && s.shard !== filter.shard)) continue;
        const rows = await listParked(s.db, filter, first - out.length, after && after.store === i ? after : undefined);
        for (const e of rows)
          out.push({ ...e, store: s.kind, shard: s.shard, position: { store: i, createdAt: e.createdAt, eventId: e.eventId } });
      }
      return out;
    },
  };
}
