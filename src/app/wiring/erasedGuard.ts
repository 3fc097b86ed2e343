// The erasure guard of a writer of the read side (the projector, a dead-letter replay, a rebuild, a
// repair): the erased aggregates it must never write again, read from ClickHouse's erased_aggregates and
// cached (src/projections/erased/erasedAggregatesCache.ts). The projector runs the refresh loop; the
// reconciliation service refreshes lazily on use. Both follow ERASURE_GUARD_REFRESH_MS, which the
// ClickHouse erasure waits three times over before it deletes.
import { erasedAggregatesCache, type ErasedAggregatesCache } from '../../projections/erased/erasedAggregatesCache';
import type { Clock } from '../../shared/clock';
import type { Resources } from '../resources';

export function erasedGuardFrom(r: Pick<Resources, 'clickhouse' | 'settings'>, clock: Clock): ErasedAggregatesCache {
  return erasedAggregatesCache({
    ch: r.clickhouse,
    database: r.settings.clickhouseDatabase,
    clock,
    refreshMs: r.settings.erasureGuardRefreshMs,
  });
}
