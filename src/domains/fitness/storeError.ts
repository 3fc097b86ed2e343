// A shard's driver errors as typed errors: lock waits and deadlocks on a contended result are a
// retriable STORE_UNAVAILABLE ("busy"), typed errors pass through, anything else is normalised.
import type { MysqlShard } from '../../infra/mysql/fromMysql';
import { TidemarkError, toTidemarkError } from '../../shared/errors';

const BUSY_ERRNOS = new Set([1205, 1213]); // lock wait timeout, deadlock

export function storeError(err: unknown, shard: MysqlShard): TidemarkError {
  if (err instanceof TidemarkError) return err;
  if (BUSY_ERRNOS.has((err as { errno?: number }).errno ?? 0))
    return new TidemarkError('STORE_UNAVAILABLE', 'the result is busy; retry', {
      retriable: true,
      cause: err,
      details: { store: `fitness-shard-${shard.index}` },
    });
  return toTidemarkError(err, `fitness-shard-${shard.index}`);
}
