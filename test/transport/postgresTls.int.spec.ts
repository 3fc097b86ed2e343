// The orders store over TLS: a private PostgreSQL that accepts only TLS connections (hostssl), with a CA
// and certificates made by the test. The store's own factory (fromPostgres) with PG_TLS=verify and the
// CA migrates and queries over an encrypted session; a CA that did not sign the server certificate, a
// host name the certificate does not carry and a plaintext client are refused with typed errors.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { ConfigError, loadSettings } from '../../src/config/settings';
import { migratePostgres } from '../../src/infra/migrate';
import { fromPostgres } from '../../src/infra/postgres/fromPostgres';
import { asTransportError } from '../../src/infra/tls';
import { TransportSecurityError, toTidemarkError } from '../../src/shared/errors';
import { makeTestPki, type TestPki } from './support/certs';
import { privateDir } from './support/privateDir';
import { startTlsPostgres, type TlsPostgres } from './support/tlsPostgres';

let pki: TestPki;
let server: TlsPostgres;
const open: Knex[] = [];

beforeAll(async () => {
  pki = makeTestPki(privateDir('pki'));
  server = await startTlsPostgres(pki);
}, 120000);

afterAll(async () => {
  await Promise.allSettled(open.map((db) => db.destroy()));
  await server?.stop();
  if (pki) rmSync(pki.dir, { recursive: true, force: true });
});

/** The orders store as the application opens it, from environment variables through loadSettings. */
function store(env: Record<string, string>, database = 'postgres'): Knex {
  const s = loadSettings({
    ...process.env,
    TIDEMARK_ENV: 'test',
    PG_HOST: '127.0.0.1',
    PG_PORT: String(server.port),
    PG_USER: server.user,
    PG_PASSWORD: server.password,
    PG_DATABASE: database,
    ...env,
  });
  const db = fromPostgres({ ...s, dbPoolMax: 2 });
  open.push(db);
  return db;
}

async function refusal(db: Knex): Promise<unknown> {
  return db.raw('SELECT 1').then(
    () => {
      throw new Error('the connection was expected to be refused');
    },
    (err: unknown) => err,
  );
}

describe('PostgreSQL over TLS', () => {
  it('migrates and queries the orders store over a verified TLS session with PG_TLS=verify and PG_TLS_CA', async () => {
    const db = store({ PG_TLS: 'verify', PG_TLS_CA: pki.ca });
    const report = await migratePostgres(db, 'postgres');
    expect(report.applied.length).toBeGreaterThan(0);
    const { rows } = await db.raw('SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
    expect(rows[0].ssl).toBe(true);
    expect(rows[0].version).toMatch(/^TLSv1\.[23]$/);
    expect((await db('store_identity').first('store')).store).toBe('orders');
  });

  it('refuses a server certificate that PG_TLS_CA did not sign, with a typed, non-retriable error', async () => {
    const err = await refusal(store({ PG_TLS: 'verify', PG_TLS_CA: pki.untrustedCa }));
    const typed = toTidemarkError(err, 'postgres');
    expect(typed).toBeInstanceOf(TransportSecurityError);
    const details = { store: 'postgres', reason: 'CERTIFICATE_UNTRUSTED' };
    expect(typed).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: false, details });
    expect(typed.message).toBe('postgres refused the connection: the server certificate is not signed by a trusted CA');
    // At start-up (migrateAll) the message also names the settings to check.
    expect((asTransportError(err, 'postgres', 'postgres') as Error).message).toMatch(/not signed by a trusted CA \(check PG_TLS\*\)$/);
  });

  it('checks the host name: 127.0.0.2 is not in the certificate', async () => {
    const err = await refusal(store({ PG_HOST: '127.0.0.2', PG_TLS: 'verify', PG_TLS_CA: pki.ca }));
    expect(toTidemarkError(err, 'postgres')).toMatchObject({ details: { reason: 'CERTIFICATE_NAME_MISMATCH' } });
  });

  it('is refused in plaintext (the default, PG_TLS=off) by a TLS-only server', async () => {
    const err = await refusal(store({}));
    expect(toTidemarkError(err, 'postgres')).toMatchObject({ code: 'STORE_UNAVAILABLE', details: { reason: 'TLS_REQUIRED_BY_SERVER' } });
  });

  it('encrypts without checking the certificate with PG_TLS=require', async () => {
    const { rows } = await store({ PG_TLS: 'require' }).raw('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
    expect(rows[0].ssl).toBe(true);
  });

  it('presents PG_TLS_CERT/PG_TLS_KEY to a database that requires a client certificate', async () => {
    const mtls = { PG_TLS: 'verify', PG_TLS_CA: pki.ca };
    const withCert = store({ ...mtls, PG_TLS_CERT: pki.clientCert, PG_TLS_KEY: pki.clientKey }, 'tidemark_mtls');
    const { rows } = await withCert.raw('SELECT current_database() AS db');
    expect(rows[0].db).toBe('tidemark_mtls');
    const err = await refusal(store(mtls, 'tidemark_mtls'));
    expect(toTidemarkError(err, 'postgres')).toMatchObject({ details: { reason: 'CLIENT_CERTIFICATE_REQUIRED' } });
  });

  it('stops at start-up naming the variable when a PEM file cannot be read', () => {
    let err: unknown;
    try {
      loadSettings({ TIDEMARK_ENV: 'test', PG_TLS: 'verify', PG_TLS_CA: join(pki.dir, 'missing.crt') });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual([
      `PG_TLS_CA=${join(pki.dir, 'missing.crt')} cannot be read (ENOENT). Set PG_TLS_CA to a PEM file this process can read.`,
    ]);
  });
});
