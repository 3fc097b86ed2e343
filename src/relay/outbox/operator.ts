// Operator actions on the outbox of every store: list PARKED events and replay them. Replay returns
// rows to NEW with their original eventId, version and stored record; the relays then deliver them.
import type { Domain } from '../../publication/event';
import type { PublicationStore } from '../../publication/stores';
import { stateChangeOf, type StateChangeSink } from '../../publication/stateChanges/stateChange';
import type { Clock } from '../../shared/clock';
import { storeLabels, type OutboxMetrics } from './metrics';
import { listParked, type ParkedEvent } from './sql/listParked';
import { replayParked, type ParkedFilter, type ReplayedEvent } from './sql/replayParked';

export const MAX_OPERATOR_BATCH = 1000;

export interface StoreFilter extends ParkedFilter {
  store?: PublicationStore['kind'];
  shard?: number;
}

export interface OutboxOperator {
  listParked(filter: StoreFilter, limit: number): Promise<(ParkedEvent & { store: string; shard: number })[]>;
  replayParked(filter: StoreFilter, limit: number): Promise<(ReplayedEvent & { store: string; shard: number })[]>;
}

export function outboxOperator(
  stores: readonly PublicationStore[],
  opts: { metrics?: OutboxMetrics; stateChanges: StateChangeSink; clock: Clock },
): OutboxOperator {
  const pick = (f: StoreFilter) =>
    stores.filter((s) => (f.store === undefined || s.kind === f.store) && (f.shard === undefined || s.shard === f.shard));
  const bounded = (limit: number) => Math.min(Math.max(1, Math.trunc(limit)), MAX_OPERATOR_BATCH);
  return {
    async listParked(filter, limit) {
      const out: (ParkedEvent & { store: string; shard: number })[] = [];
      for (const s of pick(filter)) {
        if (out.length >= bounded(limit)) break;
        for (const e of await listParked(s.db, filter, bounded(limit) - out.length)) out.push({ ...e, store: s.kind, shard: s.shard });
      }
      return out;
    },
    async replayParked(filter, limit) {
      const out: (ReplayedEvent & { store: string; shard: number })[] = [];
      for (const s of pick(filter)) {
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
