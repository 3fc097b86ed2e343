// The projections store over HTTPS: a private ClickHouse server that serves HTTPS only, with a CA and
// a certificate made by the test. The client's own factory (fromClickHouse) with an https:// URL and
// CLICKHOUSE_TLS_CA migrates and queries; the stack manager's probe answers; a CA that did not sign the
// server certificate, or none (the system CAs), is refused with a typed error; a ping (which reports failure in
// its result, never by throwing) succeeds only over a verified session; a server that requires client
// certificates gets CLICKHOUSE_TLS_CERT/KEY.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings, type Settings } from '../../src/config/settings';
import { clickhouseService } from '../../src/devstack/clickhouse';
import { repoRoot } from '../../src/devstack/stack';
import { fromClickHouse, type ClickHouseClient } from '../../src/infra/clickhouse/fromClickHouse';
import { SINGLE_SERVER } from '../../src/infra/clickhouse/layout';
import { migrateClickHouse } from '../../src/infra/migrate';
import { StoreUnavailableError, toTidemarkError, TransportSecurityError } from '../../src/shared/errors';
import { makeTestPki, type TestPki } from './support/certs';
import { privateDir } from './support/privateDir';
import { startTlsClickHouse, type TlsClickHouse } from './support/tlsClickHouse';

let pki: TestPki;
let server: TlsClickHouse;
const open: ClickHouseClient[] = [];

beforeAll(async () => {
  pki = makeTestPki(privateDir('pki'));
  server = await startTlsClickHouse(pki);
}, 120000);

afterAll(async () => {
  await Promise.allSettled(open.map((c) => c.close()));
  await server?.stop();
  if (pki) rmSync(pki.dir, { recursive: true, force: true });
});

function settings(env: Record<string, string>): Settings {
  return loadSettings({
    ...process.env,
    TIDEMARK_ENV: 'test',
    CLICKHOUSE_ENGINE: 'server',
    CLICKHOUSE_URL: server.url,
    CLICKHOUSE_DATABASE: `tidemark_tls_${randomBytes(4).toString('hex')}`,
    ...env,
  });
}

function client(s: Settings): ClickHouseClient {
  const ch = fromClickHouse(s, { database: null, requestTimeoutMs: 10000 });
  open.push(ch);
  return ch;
}

async function refusal(ch: ClickHouseClient): Promise<unknown> {
  return ch.query({ query: 'SELECT 1', format: 'JSONEachRow' }).then(
    () => {
      throw new Error('the connection was expected to be refused');
    },
    (err: unknown) => toTidemarkError(err, 'clickhouse'),
  );
}

/** A ping that failed: @clickhouse/client reports it in the result (it does not throw); its error, typed. */
async function pingFailure(ch: ClickHouseClient): Promise<unknown> {
  const r = await ch.ping();
  if (r.success) throw new Error('the ping was expected to fail');
  return toTidemarkError(r.error, 'clickhouse');
}

describe('ClickHouse over HTTPS', () => {
  it('migrates and queries the projections over HTTPS verified against CLICKHOUSE_TLS_CA; the stack probe answers', async () => {
    const s = settings({ CLICKHOUSE_TLS_CA: pki.ca });
    const ch = client(s);
    const report = await migrateClickHouse(ch, s.clickhouseDatabase, SINGLE_SERVER);
    expect(report.applied.length).toBeGreaterThan(0);
    const rs = await ch.query({ query: `SELECT count() AS n FROM ${s.clickhouseDatabase}.schema_migrations`, format: 'JSONEachRow' });
    expect(Number((await rs.json<{ n: string }>())[0]!.n)).toBe(report.applied.length);
    // By name as well: the certificate carries localhost.
    const byName = await client(
      settings({ CLICKHOUSE_URL: server.url.replace('127.0.0.1', 'localhost'), CLICKHOUSE_TLS_CA: pki.ca }),
    ).ping();
    expect(byName).toEqual({ success: true });
    const stackDir = mkdtempSync(join(tmpdir(), 'tidemark-stack-'));
    try {
      expect(await clickhouseService({ settings: s, dir: stackDir, root: repoRoot, log: () => undefined }).check()).toBe(true);
    } finally {
      rmSync(stackDir, { recursive: true, force: true });
      await ch.command({ query: `DROP DATABASE IF EXISTS ${s.clickhouseDatabase}` });
    }
  });

  it('refuses a server certificate that CLICKHOUSE_TLS_CA did not sign, with a typed, non-retriable error', async () => {
    const err = await refusal(client(settings({ CLICKHOUSE_TLS_CA: pki.untrustedCa })));
    expect(err).toBeInstanceOf(TransportSecurityError);
    const details = { store: 'clickhouse', reason: 'CERTIFICATE_UNTRUSTED' };
    expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: false, details });
  });

  it("refuses the test CA's certificate when no CLICKHOUSE_TLS_CA is set (the system CAs do not know it)", async () => {
    expect(await refusal(client(settings({})))).toMatchObject({ details: { reason: 'CERTIFICATE_UNTRUSTED' } });
  });

  it('answers a ping only over a verified session: a CA that did not sign, or plaintext to the HTTPS port, fail with a reason', async () => {
    expect(await client(settings({ CLICKHOUSE_TLS_CA: pki.ca })).ping()).toEqual({ success: true });
    const untrusted = await pingFailure(client(settings({ CLICKHOUSE_TLS_CA: pki.untrustedCa })));
    expect(untrusted).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: false, details: { reason: 'CERTIFICATE_UNTRUSTED' } });
    // Plaintext HTTP to the HTTPS port: the server drops the connection without a word a client could read as
    // "TLS required" (a reset), so the product can only call it the store being unavailable.
    const plaintext = await pingFailure(client(settings({ CLICKHOUSE_URL: server.url.replace('https:', 'http:') })));
    expect(plaintext).toBeInstanceOf(StoreUnavailableError);
    expect(plaintext).toMatchObject({ code: 'STORE_UNAVAILABLE', details: { store: 'clickhouse' } });
  });

  it('presents CLICKHOUSE_TLS_CERT/CLICKHOUSE_TLS_KEY to a server that requires client certificates', async () => {
    const mtls = await startTlsClickHouse(pki, { clientCerts: true });
    try {
      const env = { CLICKHOUSE_URL: mtls.url, CLICKHOUSE_TLS_CA: pki.ca };
      const ch = client(settings({ ...env, CLICKHOUSE_TLS_CERT: pki.clientCert, CLICKHOUSE_TLS_KEY: pki.clientKey }));
      const rs = await ch.query({ query: 'SELECT 1 AS ok', format: 'JSONEachRow' });
      expect(await rs.json()).toEqual([{ ok: 1 }]);
      const refused = await refusal(client(settings(env)));
      expect(refused).toMatchObject({ code: 'STORE_UNAVAILABLE', details: { reason: 'CLIENT_CERTIFICATE_REQUIRED' } });
    } finally {
      await mtls.stop();
    }
  });
});
