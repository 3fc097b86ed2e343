// ClickHouse adapter. One client API for both engines (CLICKHOUSE_ENGINE): the HTTP client to a server
// (Debian's 18.16 here, any current release elsewhere), or the same @clickhouse/client over chdb's
// in-process connection (ClickHouse 26, `chdb/connection`). Values reach SQL only through ./literal.ts
// (18.16 has no server-side query parameters), and every statement names its database: the chdb
// connection ignores the client's `database` option, so a default database would silently be `default`.
import { createClient, ClickHouseLogLevel, type ClickHouseClient } from '@clickhouse/client';
import { embeddedClickHousePath } from '../../config/paths';
import type { ClickHouseSettings } from '../../config/slices';
import { clickhouseTls } from '../tls';

export type { ClickHouseClient };
export type { ClickHouseSettings };

/**
 * On a cluster (layout.ts): an INSERT into a Distributed table returns once every shard it touched has
 * written its rows (so the projector's offset commit follows durable data, not a local queue), and a
 * subquery over a projection inside a distributed query reads the shard's own local table, which is
 * complete for that shard's aggregates because the sharding key is the aggregate id. And the server
 * answers only once the query ended (wait_end_of_query): otherwise 18.16 streams the result of a
 * distributed query or of ON CLUSTER DDL, and a shard's or host's failure arrives as text after a 200
 * status, which a client reads as success. Reads and inserts prefer the first live replica of each shard
 * (load_balancing=in_order): a synchronous insert is on one replica when it returns, and a read sent to
 * a replica that has not fetched it yet would miss rows the checkpoint already calls applied.
 */
const CLUSTER_SETTINGS = {
  insert_distributed_sync: 1,
  distributed_product_mode: 'local',
  wait_end_of_query: 1,
  load_balancing: 'in_order',
} as const;

export function fromClickHouse(
  s: ClickHouseSettings,
  opts: { database?: string | null; requestTimeoutMs?: number } = {},
): ClickHouseClient {
  const database = opts.database === null ? undefined : (opts.database ?? s.clickhouseDatabase);
  const common = {
    database,
    // UInt64/Int64 values arrive as JSON strings on every release: 18.16 quotes them by default, current
    // releases (chdb's 26.7 included) print bare numbers that JSON.parse rounds (XOR digests, offsets).
    clickhouse_settings: { output_format_json_quote_64bit_integers: 1 as const, ...(s.clickhouseCluster ? CLUSTER_SETTINGS : {}) },
    request_timeout: opts.requestTimeoutMs ?? 30000,
    // The client logs failed requests itself; we normalise and log them once at our boundary.
    log: { level: ClickHouseLogLevel.OFF },
  };
  if (s.clickhouseEngine === 'embedded') return createClient({ ...common, connection: embeddedConnection(embeddedClickHousePath(s)) });
  const tls = clickhouseTls(s);
  return createClient({
    ...common,
    ...(tls ? { tls } : {}),
    url: s.clickhouseUrl,
    username: s.clickhouseUser,
    password: s.clickhousePassword,
    max_open_connections: 16,
    keep_alive: { enabled: true },
  });
}

type EmbeddedConnection = NonNullable<Parameters<typeof createClient>[0]>['connection'];

/**
 * A chdb connection to the data directory. Loaded on first use only: libchdb is a large shared library
 * that a process talking to a server never needs. Connections to one directory share one engine; a
 * second process cannot open it (libchdb locks it), which is said here instead of chdb's bare error.
 */
function embeddedConnection(path: string): EmbeddedConnection {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when used, or a path no import can name
  const { createChdbConnection } = require('chdb/connection') as typeof import('chdb/connection');
  try {
    return createChdbConnection({ path }) as unknown as EmbeddedConnection;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `The embedded ClickHouse could not open its data directory ${path} (${why}). Most likely another process has it open: ` +
        'libchdb lets one process at a time use a directory. Stop that process, give this one its own CLICKHOUSE_EMBEDDED_PATH, ' +
        'or set CLICKHOUSE_ENGINE=server to share a ClickHouse server between processes.',
    );
  }
}
