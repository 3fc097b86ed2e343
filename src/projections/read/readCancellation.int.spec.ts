// A read made for a client request ends on the ClickHouse server when that client goes away (the
// query is killed by its query_id, not just abandoned by the HTTP client), while a read shared across
// requests runs on; and the gateway's read-only user can read and kill its own reads but not write.
import { LOCAL_CLICKHOUSE_READER } from '../../config/settings';
import { fromClickHouse, type ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import { createRegistry } from '../../metrics/registry';
import { TidemarkError } from '../../shared/errors';
import { waitFor } from '../../shared/lifecycle';
import { sharedAcrossRequests, withRequestSignal } from '../../shared/requestSignal';
import { itWithClickHouseServer } from '../../../test/support/clickhouseServerOnly';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { fromClickHouseReads, type ReadModelStore } from './readModelStore';

jest.setTimeout(120000);

// 20 blocks of one row, each sleeping 3 s (ClickHouse's cap per call): a minute unless it is stopped.
const slowRead = (marker: string) => `SELECT sleep(3) AS s, '${marker}' AS m FROM system.numbers LIMIT 20 SETTINGS max_block_size = 1`;

describe('reads end when their client goes away', () => {
  let env: TestEnv;
  let reader: ClickHouseClient;
  let store: ReadModelStore;
  const registry = createRegistry(false);

  beforeAll(async () => {
    env = await createTestEnv();
    reader = fromClickHouse({
      ...env.settings,
      clickhouseUser: LOCAL_CLICKHOUSE_READER.user,
      clickhousePassword: LOCAL_CLICKHOUSE_READER.password,
    });
    store = fromClickHouseReads(reader, {
      registry,
      cancelOnDisconnect: true,
      bounds: { maxExecutionSeconds: 120, maxMemoryBytes: 1 << 30, readOnlyUser: true },
    });
  });
  afterAll(async () => {
    await reader?.close();
    await env?.cleanup();
  });

  const running = async (marker: string) => {
    const rs = await env.resources.clickhouse.query({
      query: `SELECT count() AS n FROM system.processes WHERE query LIKE '%${marker}%' AND query NOT LIKE '%system.processes%'`,
      format: 'JSONEachRow',
    });
    return Number((await rs.json<{ n: string }>())[0]!.n);
  };

  itWithClickHouseServer('kills the server query of a request whose client went away', async () => {
    const marker = `cancel-${Date.now()}`;
    const client = new AbortController();
    const read = withRequestSignal(client.signal, () => store.select('slow', slowRead(marker)));
    const outcome = read.then(
      () => 'answered',
      (e: unknown) => (e instanceof TidemarkError ? e.code : String(e)),
    );
    await waitFor(async () => (await running(marker)) === 1, { what: 'the slow read running on the server' });
    client.abort();
    expect(await outcome).toBe('CANCELLED');
    // Gone from the server long before its minute: killed, not left to run.
    await waitFor(async () => (await running(marker)) === 0, { timeoutMs: 20000, what: 'the killed read to leave system.processes' });
    const [metric] = (await registry.getSingleMetric('tidemark_read_model_queries_cancelled_total')!.get()).values;
    expect(metric!.value).toBe(1);
  });

  itWithClickHouseServer('lets a read shared across requests finish when one of its callers leaves', async () => {
    const client = new AbortController();
    const read = withRequestSignal(client.signal, () =>
      sharedAcrossRequests(() => store.select<{ s: number }>('shared', 'SELECT sleep(1) AS s')),
    );
    setTimeout(() => client.abort(), 200);
    expect(await read).toEqual([{ s: 0 }]);
  });

  itWithClickHouseServer('reads as the read-only user, which cannot write', async () => {
    expect(await store.select<{ one: number }>('one', 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    const db = env.settings.clickhouseDatabase;
    await expect(reader.command({ query: `CREATE TABLE ${db}.intruder (a UInt8) ENGINE = Memory` })).rejects.toThrow(/readonly/i);
    await expect(reader.command({ query: `DROP DATABASE ${db}` })).rejects.toThrow(/readonly/i);
  });
});
