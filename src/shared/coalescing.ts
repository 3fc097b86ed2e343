// Cross-request coalescing of point lookups. A gateway under load answers many requests for single
// ids at once (a dashboard polling results, 32 clients each asking for one order); every such lookup
// costs ClickHouse (or MySQL) nearly as much for one id as for fifty. A coalescing loader collects
// the ids asked for during one turn of the event loop (every request whose bytes arrived together)
// and fetches them in one query, then hands each caller its own rows.
//
// It is DataLoader with its cache off: nothing is remembered across calls (each caller gets what the
// store says now, so a later lookup never sees an older answer), only concurrent questions are
// shared. The batch runs in the event loop's check phase (setImmediate), right after the pending I/O
// callbacks, so a lone request waits for nothing. Lookups whose answer depends on who asks (the
// caller's scope) use coalescingLoaders: one loader per scope, never one batch across scopes.
import DataLoader from 'dataloader';
import { sharedAcrossRequests } from './requestSignal';

// A batch answers many requests: none of them may cancel it by leaving (requestSignal.ts).
const nextIoTurn = (run: () => void): void => {
  setImmediate(() => sharedAcrossRequests(run));
};

export function coalescingLoader<K, V>(
  batch: (keys: readonly K[]) => Promise<readonly (V | Error)[]>,
  maxBatchSize = 500,
): DataLoader<K, V> {
  return new DataLoader<K, V>(batch, { cache: false, batchScheduleFn: nextIoTurn, maxBatchSize });
}

/** loadMany that fails like a single query would (the first error), instead of returning errors per key. */
export async function loadAll<K, V>(loader: DataLoader<K, V>, keys: readonly K[]): Promise<V[]> {
  const values = await loader.loadMany(keys);
  for (const v of values) if (v instanceof Error) throw v;
  return values as V[];
}

/**
 * One coalescing loader per key (a caller's scope, say), so concurrent lookups are shared only by
 * callers that would get the same answer. Bounded: past `maxKeys` the least recently used loader is
 * forgotten (a batch already scheduled on it still runs; a later call simply builds a new one).
 */
export function coalescingLoaders<S, K, V>(
  keyOf: (s: S) => string,
  batch: (s: S, keys: readonly K[]) => Promise<readonly (V | Error)[]>,
  maxKeys = 1000,
): (s: S) => DataLoader<K, V> {
  const loaders = new Map<string, DataLoader<K, V>>();
  return (s) => {
    const key = keyOf(s);
    let l = loaders.get(key);
    if (l) loaders.delete(key);
    else {
      l = coalescingLoader<K, V>((keys) => batch(s, keys));
      if (loaders.size >= maxKeys) loaders.delete(loaders.keys().next().value as string);
    }
    loaders.set(key, l);
    return l;
  };
}
