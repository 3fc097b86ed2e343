// The fitness shards over TLS: a private MariaDB that accepts only TLS (require_secure_transport), with
// a CA and certificates made by the test. The shards' own factory (fromMysqlShards) with MYSQL_TLS=verify
// and the CA migrates and queries over an encrypted session; an untrusted CA, a host name the certificate
// does not carry, a plaintext client and a missing client certificate are refused with typed errors.
import { rmSync } from 'node:fs';
import { loadSettings } from '../../src/config/settings';
import { migrateMysqlShards } from '../../src/infra/migrate';
import { fromMysqlShards, type MysqlShards } from '../../src/infra/mysql/fromMysql';
import { toTidemarkError, TransportSecurityError } from '../../src/shared/errors';
import { issueServerCert, makeTestPki, type TestPki } from './support/certs';
import { privateDir } from './support/privateDir';
import { startTlsMariadb, type TlsMariadb } from './support/tlsMariadb';

let pki: TestPki;
let server: TlsMariadb;
const open: MysqlShards[] = [];

beforeAll(async () => {
  pki = makeTestPki(privateDir('pki'));
  server = await startTlsMariadb(pki);
}, 120000);

afterAll(async () => {
  await Promise.allSettled(open.map((m) => m.destroy()));
  await server?.stop();
  if (pki) rmSync(pki.dir, { recursive: true, force: true });
});

/** The fitness shard as the application opens it, from environment variables through loadSettings. */
function shards(env: Record<string, string>): MysqlShards {
  const s = loadSettings({
    ...process.env,
    TIDEMARK_ENV: 'test',
    MYSQL_HOST: '127.0.0.1',
    MYSQL_PORT: String(server.port),
    MYSQL_USER: 'tidemark',
    MYSQL_PASSWORD: server.password,
    FITNESS_SHARD_DATABASES: 'tidemark_fitness_0',
    ...env,
  });
  const m = fromMysqlShards({ ...s, dbPoolMax: 2 });
  open.push(m);
  return m;
}

async function refusal(m: MysqlShards): Promise<unknown> {
  return m
    .shard(0)
    .db.raw('SELECT 1')
    .then(
      () => {
        throw new Error('the connection was expected to be refused');
      },
      (err: unknown) => err,
    );
}

describe('MariaDB over TLS', () => {
  it('migrates and queries a fitness shard over a verified TLS session with MYSQL_TLS=verify and MYSQL_TLS_CA', async () => {
    const m = shards({ MYSQL_TLS: 'verify', MYSQL_TLS_CA: pki.ca });
    const [report] = await migrateMysqlShards(m);
    expect(report!.applied.length).toBeGreaterThan(0);
    const [rows] = await m.shard(0).db.raw("SHOW SESSION STATUS LIKE 'Ssl_version'");
    expect(rows[0].Value).toMatch(/^TLSv1\.[23]$/);
  });

  it('refuses a server certificate that MYSQL_TLS_CA did not sign, with a typed, non-retriable error', async () => {
    const err = toTidemarkError(await refusal(shards({ MYSQL_TLS: 'verify', MYSQL_TLS_CA: pki.untrustedCa })), 'fitness-shard-0');
    expect(err).toBeInstanceOf(TransportSecurityError);
    expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: false, details: { reason: 'CERTIFICATE_UNTRUSTED' } });
  });

  it('checks the host name: 127.0.0.1 and localhost are in the certificate, a name that is not is refused', async () => {
    const verify = { MYSQL_TLS: 'verify', MYSQL_TLS_CA: pki.ca };
    await shards({ MYSQL_HOST: 'localhost', ...verify })
      .shard(0)
      .db.raw('SELECT 1');
    // The same server, now presenting a certificate from the same CA for another name (and 127.0.0.1) only: no
    // resolver is asked for a name it may not know, and localhost (always in /etc/hosts) is the name it lacks.
    // (For an IP address mysql2 passes no servername, and node then checks the name "localhost".)
    server.presentCertificate(issueServerCert(pki, 'shard-by-address', 'DNS:shard.tidemark.invalid,IP:127.0.0.1'));
    try {
      const err = toTidemarkError(await refusal(shards({ MYSQL_HOST: 'localhost', ...verify })), 'fitness-shard-0');
      expect(err).toBeInstanceOf(TransportSecurityError);
      expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: false, details: { reason: 'CERTIFICATE_NAME_MISMATCH' } });
    } finally {
      server.presentCertificate();
    }
  });

  it('is refused in plaintext (the default, MYSQL_TLS=off) by a server that requires secure transport', async () => {
    // MariaDB answers a plaintext login under require_secure_transport with "access denied" and no reason
    // (MySQL says ER_SECURE_TRANSPORT_REQUIRED, which is typed as TLS_REQUIRED_BY_SERVER).
    expect(await refusal(shards({}))).toMatchObject({ code: 'ER_ACCESS_DENIED_ERROR' });
  });

  it('presents MYSQL_TLS_CERT/MYSQL_TLS_KEY for a user that requires a client certificate', async () => {
    const x509 = { MYSQL_USER: 'tidemark_x509', MYSQL_TLS: 'verify', MYSQL_TLS_CA: pki.ca };
    await shards({ ...x509, MYSQL_TLS_CERT: pki.clientCert, MYSQL_TLS_KEY: pki.clientKey })
      .shard(0)
      .db.raw('SELECT 1');
    // MariaDB refuses a login without the certificate REQUIRE X509 asks for as "access denied", no reason given.
    expect(await refusal(shards(x509))).toMatchObject({ code: 'ER_ACCESS_DENIED_ERROR' });
  });
});
