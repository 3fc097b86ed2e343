// Port for read-model queries, adapter over ClickHouse. Every query has a name, so each one is
// counted and timed (tidemark_read_model_queries_total / _duration_seconds): that is how tests and
// operators see that DataLoaders batch (50 lookups by id = 1 query). Errors leave as TidemarkErrors:
// READ_MODEL_UNAVAILABLE (retriable) when ClickHouse cannot be reached, READ_TOO_EXPENSIVE when the server
// stopped it at its bounds (max_execution_time, max_memory_usage: readSettings), INTERNAL otherwise; raw
// ClickHouse text never reaches a client. A read made for a client request (requestSignal.ts) is
// cancelled when that client goes away: the HTTP request is aborted and the server's query killed by
// its query_id (aborting alone leaves it running: 18.16 notices a closed client only when it writes,
// and the read bounds would let it run to max_execution_time). KILL QUERY works for a readonly user.
import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { ReadModelStore } from '../../domains/contract/readModelStore';
import { counter, histogram } from '../../metrics/registry';
import { isConnectionError, TidemarkError } from '../../shared/errors';
import { requestSignal } from '../../shared/requestSignal';

// The port is the domains' (their read SQL sits below this folder); re-exported for the app's wiring.
export type { ReadModelStore };

/** Server-side bounds of every read (READ_MAX_EXECUTION_SECONDS, READ_MAX_MEMORY_BYTES). */
export interface ReadBounds {
  maxExecutionSeconds: number;
  maxMemoryBytes: number;
  /** The user is read-only by its profile (CLICKHOUSE_READ_USER): readonly is not sent (26.x refuses to set it). */
  readOnlyUser?: boolean;
}

export interface ReadStoreOptions {
  registry?: Registry;
  bounds?: ReadBounds;
  /** Kill a read on the server when its client request is cancelled (not on the embedded engine). */
  cancelOnDisconnect?: boolean;
}

// ClickHouse's codes for a query stopped by its bounds: TIMEOUT_EXCEEDED, MEMORY_LIMIT_EXCEEDED,
// TOO_MANY_ROWS, TOO_MANY_BYTES.
const BOUND_EXCEEDED = new Set(['159', '241', '158', '307']);
// On a cluster the server answering may be up while a shard it reads is not: ALL_CONNECTION_TRIES_FAILED,
// NETWORK_ERROR, SOCKET_TIMEOUT. The read model is then unavailable (retriable), as when the server is down.
const SHARD_UNREACHABLE = new Set(['279', '210', '209']);

/**
 * ClickHouse's error code: the client parses it from a current release's text, which ends in
 * "(MEMORY_LIMIT_EXCEEDED)"; 18.16's text has no such name ("Code: 241, e.displayText() = ..."), so
 * there the client leaves `code` unset and the code is read from the start of the message.
 */
function clickhouseCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (code !== undefined) return String(code);
  return /^Code: (\d+)[.,]/.exec(String((err as Error | undefined)?.message))?.[1];
}

/**
 * The settings sent with every read: the bounds, enforced by the server (a client timeout alone leaves the
 * query running there), and readonly=2 (no writes, DDL or changes of other settings; setting these bounds
 * in the same request is still allowed, which readonly=1 would refuse).
 */
export function readSettings(b: ReadBounds): Record<string, number> {
  const bounds = { max_execution_time: b.maxExecutionSeconds, max_memory_usage: b.maxMemoryBytes };
  return b.readOnlyUser ? bounds : { ...bounds, readonly: 2 };
}

export function fromClickHouseReads(ch: ClickHouseClient, o: ReadStoreOptions = {}): ReadModelStore {
  const { registry, bounds } = o;
  const clickhouse_settings = bounds ? readSettings(bounds) : undefined;
  const cancelled =
    registry &&
    counter(registry, {
      name: 'tidemark_read_model_queries_cancelled_total',
      help: 'ClickHouse read-model queries killed because the client request they served went away.',
    });
  /** Ties the read to the current request: aborts the HTTP request and kills the server's query. */
  const cancellation = () => {
    const signal = o.cancelOnDisconnect ? requestSignal() : undefined;
    if (!signal) return { options: {}, done: () => undefined };
    if (signal.aborted) throw new TidemarkError('CANCELLED', 'the request was cancelled by its client');
    const query_id = randomUUID();
    const kill = () => {
      cancelled?.inc();
      void ch.command({ query: `KILL QUERY WHERE query_id = '${query_id}' ASYNC` }).catch(() => undefined);
    };
    signal.addEventListener('abort', kill, { once: true });
    return { options: { query_id, abort_signal: signal }, done: () => signal.removeEventListener('abort', kill) };
  };
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
      const c = cancellation();
      try {
        const rs = await ch.query({
          query: sql,
          format: 'JSONEachRow',
          ...(clickhouse_settings ? { clickhouse_settings } : {}),
          ...c.options,
        });
        return await rs.json<T>();
      } catch (err) {
        if (requestSignal()?.aborted && c.options.query_id)
          throw new TidemarkError('CANCELLED', 'the request was cancelled by its client', { cause: err, retriable: false });
        if (BOUND_EXCEEDED.has(clickhouseCode(err) ?? ''))
          throw new TidemarkError('READ_TOO_EXPENSIVE', 'the read exceeded its time or memory bound: narrow the filter', {
            cause: err,
            retriable: false,
          });
        if (
          isConnectionError(err) ||
          SHARD_UNREACHABLE.has(clickhouseCode(err) ?? '') ||
          (err as { name?: string }).name === 'AbortError' ||
          /timeout/i.test(String((err as Error)?.message))
        )
          throw new TidemarkError('READ_MODEL_UNAVAILABLE', 'the read model is unavailable; retry later (writes are not affected)', {
            cause: err,
            details: { store: 'clickhouse' },
          });
        throw new TidemarkError('INTERNAL', 'read model query failed', { cause: err, retriable: false });
      } finally {
        c.done();
        end?.();
      }
    },
  };
}
