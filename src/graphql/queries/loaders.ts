// Per-request DataLoaders of the read models. Created lazily on first use and kept for the life of the
// request's context object (a WeakMap, so nothing outlives the request), they batch every lookup
// made while one GraphQL operation resolves: 50 aliased fitnessResult fields are one ClickHouse
// query, the studentResults of a whole page are one query, and per-aggregate freshness is one query
// per store. Nothing is cached across requests here (freshness has its own brief cache).
import DataLoader from 'dataloader';
import type { Freshness } from '../../projections/freshness/decideFreshness';
import type { ReadModels } from '../../projections/read/readModels';
import type { FitnessView, OrderView } from '../../projections/read/views';
import type { GatewayContext } from '../context';
import { requireService } from '../shared/services';

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

const studentKey = (k: string) => {
  const [detectId, userId] = k.split(':').map(Number);
  return { detectId: detectId!, userId: userId! };
};

// The read models answer in key order (null where nothing is found), so each loader is their batch
// function as it stands; they also coalesce concurrent requests' lookups into one query.
function build(rm: ReadModels): ReadLoaders {
  const options = { maxBatchSize: MAX_BATCH };
  return {
    readModels: rm,
    fitnessById: new DataLoader((ids) => rm.fitnessByIds(ids), options),
    orderById: new DataLoader((ids) => rm.ordersByIds(ids), options),
    studentResults: new DataLoader((keys) => rm.fitnessByStudents(keys.map(studentKey)), options),
    fitnessFreshness: new DataLoader((ids) => rm.freshness.forAggregates('fitness', ids), options),
    orderFreshness: new DataLoader((ids) => rm.freshness.forAggregates('orders', ids), options),
  };
}

export function loadersFor(ctx: GatewayContext): ReadLoaders {
  let l = perRequest.get(ctx);
  if (!l) {
    l = build(requireService(ctx, 'readModels'));
    perRequest.set(ctx, l);
  }
  return l;
}
