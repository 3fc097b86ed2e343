// ClickHouse adapter. The HTTP client works with 18.16 and current servers alike; we never rely on
// server-side query parameters (18.16 has none): values reach SQL only through ./literal.ts.
import { createClient, ClickHouseLogLevel, type ClickHouseClient } from '@clickhouse/client';
import type { Settings } from '../../config/settings';

export type { ClickHouseClient };
export type ClickHouseSettings = Pick<Settings, 'clickhouseUrl' | 'clickhouseUser' | 'clickhousePassword' | 'clickhouseDatabase'>;

export function fromClickHouse(s: ClickHouseSettings, opts: { database?: string | null; requestTimeoutMs?: number } = {}): ClickHouseClient {
  const database = opts.database === null ? undefined : (opts.database ?? s.clickhouseDatabase);
  return createClient({
    url: s.clickhouseUrl,
    username: s.clickhouseUser,
    password: s.clickhousePassword,
    database,
    request_timeout: opts.requestTimeoutMs ?? 30000,
    max_open_connections: 16,
    // The client logs failed requests itself; we normalise and log them once at our boundary.
    log: { level: ClickHouseLogLevel.OFF },
    keep_alive: { enabled: true },
  });
}
