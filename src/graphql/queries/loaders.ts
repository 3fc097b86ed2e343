// Per-request DataLoaders of the read models. Created lazily on first use and kept for the life of the
// request's context object (a WeakMap, so nothing outlives the request), they batch every lookup
// made while one GraphQL operation resolves: 50 aliased fitnessResult fields are one ClickHouse
// query, the studentResults of a whole page are one query, and per-aggregate freshness is one query
// per store. Nothing is cached across requests here (freshness has its own brief cache). Every loader
// asks on behalf of the request's caller (principalOf): the read models apply its scope, so a loader
// never holds, nor batches with, rows of another caller.
import DataLoader from 'dataloader';
import type { Freshness } from '../../projections/freshness/decideFreshness';
import type { Principal } from '../../auth/principal';
import type { ReadModels } from '../../projections/read/readModels';
import type { FitnessView } from '../../domains/fitness/read/fitnessView';
import type { OrderView } from '../../domains/orders/read/orderView';
import { principalOf } from '../auth';
import type { GatewayContext } from '../context';
import { requireService } from '../shared/services';

export interface ReadLoaders {
  readModels: ReadModels;
  /** The request's caller, as every read model method wants it. */
  caller: Principal;
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
function build(rm: ReadModels, caller: Principal): ReadLoaders {
  const options = { maxBatchSize: MAX_BATCH };
  return {
    readModels: rm,
    caller,
    fitnessById: new DataLoader((ids) => rm.fitnessByIds(caller, ids), options),
    orderById: new DataLoader((ids) => rm.ordersByIds(caller, ids), options),
    studentResults: new DataLoader((keys) => rm.fitnessByStudents(caller, keys.map(studentKey)), options),
    fitnessFreshness: new DataLoader((ids) => rm.aggregateFreshness(caller, 'fitness', ids), options),
    orderFreshness: new DataLoader((ids) => rm.aggregateFreshness(caller, 'orders', ids), options),
  };
}

export function loadersFor(ctx: GatewayContext): ReadLoaders {
  let l = perRequest.get(ctx);
  if (!l) {
    l = build(requireService(ctx, 'readModels'), principalOf(ctx));
    perRequest.set(ctx, l);
  }
  return l;
}
