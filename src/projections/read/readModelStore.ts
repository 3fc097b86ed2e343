// Port for read-model queries, adapter over ClickHouse. Every query has a name, so each one is
// counted and timed (tidemark_read_model_queries_total / _duration_seconds): that is how tests and
// operators see that DataLoaders batch (50 lookups by id = 1 query). Errors leave as TidemarkErrors:
// STORE_UNAVAILABLE (retriable) when ClickHouse cannot be reached, INTERNAL otherwise; raw
// ClickHouse text never reaches a client.
import type { Registry } from 'prom-client';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { counter, histogram } from '../../metrics/registry';
import { isConnectionError, StoreUnavailableError, TidemarkError } from '../../shared/errors';

export interface ReadModelStore {
  select<T>(queryName: string, sql: string): Promise<T[]>;
}

export function fromClickHouseReads(ch: ClickHouseClient, registry?: Registry): ReadModelStore {
  const count =
    registry &&
    counter(registry, {
      name: 'tidemark_read_model_queries_total',
      help: 'ClickHouse read-model queries, by query name.',
      labelNames: ['query'],
    });
  const time =
    registry &&
    histogram(registry, {
      name: 'tidemark_read_model_query_duration_seconds',
      help: 'ClickHouse read-model query time, by query name.',
      labelNames: ['query'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    });
  return {
    async select<T>(queryName: string, sql: string): Promise<T[]> {
      count?.inc({ query: queryName });
      const end = time?.startTimer({ query: queryName });
      try {
        const rs = await ch.query({ query: sql, format: 'JSONEachRow' });
        return await rs.json<T>();
      } catch (err) {
        if (isConnectionError(err) || (err as { name?: string }).name === 'AbortError' || /timeout/i.test(String((err as Error)?.message)))
          throw new StoreUnavailableError('clickhouse', err);
        throw new TidemarkError('INTERNAL', 'read model query failed', { cause: err, retriable: false });
      } finally {
        end?.();
      }
    },
  };
}
