// Per-request DataLoaders of the read models. Created lazily on first use and kept for the life of the
// request's context object (a WeakMap, so nothing outlives the request), they batch every lookup
// made while one GraphQL operation resolves: 50 aliased fitnessResult fields are one ClickHouse
// query, the studentResults of a whole page are one query, and per-aggregate freshness is one query
// per store. Nothing is cached across requests here (freshness has its own brief cache).
import DataLoader from 'dataloader';
import type { Freshness } from '../../projections/freshness/decideFreshness';
import type { ReadModels } from '../../projections/read/readModels';
import type { FitnessView, OrderView } from '../../projections/read/views';
import { TidemarkError } from '../../shared/errors';
import type { GatewayContext } from '../context';

export interface ReadLoaders {
  readModels: ReadModels;
  fitnessById: DataLoader<number, FitnessView | null>;
  orderById: DataLoader<string, OrderView | null>;
  /** Key: `${detectId}:${userId}`. */
  studentResults: DataLoader<string, FitnessView[]>;
  fitnessFreshness: DataLoader<string, Freshness>;
  orderFreshness: DataLoader<string, Freshness>;
}

const MAX_BATCH = 500;
const perRequest = new WeakMap<object, ReadLoaders>();

function build(rm: ReadModels): ReadLoaders {
  return {
    readModels: rm,
    fitnessById: new DataLoader(
      async (ids) => {
        const found = new Map((await rm.fitnessByIds([...ids])).map((v) => [v.dataId, v]));
        return ids.map((id) => found.get(String(id)) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    orderById: new DataLoader(
      async (ids) => {
        const found = new Map((await rm.ordersByIds([...ids])).map((v) => [v.orderId, v]));
        return ids.map((id) => found.get(id) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    studentResults: new DataLoader(
      async (keys) => {
        const parsed = keys.map((k) => {
          const [detectId, userId] = k.split(':').map(Number);
          return { detectId: detectId!, userId: userId! };
        });
        const all = await rm.fitnessByStudents(parsed);
        const by = new Map<string, FitnessView[]>();
        for (const v of all) by.set(`${v.detectId}:${v.userId}`, [...(by.get(`${v.detectId}:${v.userId}`) ?? []), v]);
        return keys.map((k) => by.get(k) ?? []);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    fitnessFreshness: new DataLoader(
      async (ids) => {
        const m = await rm.freshness.forAggregates('fitness', [...ids]);
        return ids.map((id) => m.get(id)!);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    orderFreshness: new DataLoader(
      async (ids) => {
        const m = await rm.freshness.forAggregates('orders', [...ids]);
        return ids.map((id) => m.get(id)!);
      },
      { maxBatchSize: MAX_BATCH },
    ),
  };
}

export function loadersFor(ctx: GatewayContext): ReadLoaders {
  let l = perRequest.get(ctx);
  if (!l) {
    const rm = ctx.services.readModels;
    if (!rm) throw new TidemarkError('STORE_UNAVAILABLE', 'read models are not served by this instance');
    l = build(rm);
    perRequest.set(ctx, l);
  }
  return l;
}
