// Refused connections produced for real, through the product's own clients, not by handing the mapping
// function a made-up error: a loopback port nobody listens on (the connection is refused: an outage,
// retriable) and TLS endpoints the client must refuse (an untrusted chain, a certificate for another
// name: a configuration problem, not retriable). The TLS endpoints are node servers in this process that
// present certificates from the test PKI; no engine is involved.
import { readFileSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { createServer, type Server } from 'node:tls';
import { loadSettings, type Settings } from '../../src/config/settings';
import { eventTopicSuffixes } from '../../src/domains/registry';
import { fromClickHouse } from '../../src/infra/clickhouse/fromClickHouse';
import { ensureTopics, fromKafka } from '../../src/infra/kafka/fromKafka';
import { fromMysqlShards } from '../../src/infra/mysql/fromMysql';
import { fromPostgres } from '../../src/infra/postgres/fromPostgres';
import { asTransportError } from '../../src/infra/tls';
import { StoreUnavailableError, toTidemarkError, TransportSecurityError } from '../../src/shared/errors';
import { issueServerCert, makeTestPki, type TestPki } from './support/certs';
import { privateDir } from './support/privateDir';

let pki: TestPki;
let closedPort: number;
const servers: Server[] = [];

/** A loopback port that was free a moment ago and has nobody listening now. */
async function refusingPort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** A TLS endpoint presenting `cert` (with the test CA in its chain) that hangs up once a handshake succeeds. */
async function tlsEndpoint(cert: { crt: string; key: string }): Promise<number> {
  const chain = Buffer.concat([readFileSync(cert.crt), readFileSync(pki.ca)]);
  const srv = createServer({ cert: chain, key: readFileSync(cert.key) }, (socket) => socket.destroy());
  srv.on('tlsClientError', () => undefined); // the client aborting the handshake is the point
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  servers.push(srv);
  return (srv.address() as { port: number }).port;
}

beforeAll(async () => {
  pki = makeTestPki(privateDir('pki'));
  closedPort = await refusingPort();
}, 60000);

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  if (pki) rmSync(pki.dir, { recursive: true, force: true });
});

function settings(env: Record<string, string>): Settings {
  return loadSettings({ ...process.env, TIDEMARK_ENV: 'test', ...env });
}

/** What `work` rejects with; a resolution fails the test. */
async function rejection(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => {
      throw new Error('the connection was expected to be refused');
    },
    (err: unknown) => err,
  );
}

describe('refused connections, produced through the real clients', () => {
  it('a port that refuses the connection is an outage of the store: retriable STORE_UNAVAILABLE, no transport reason', async () => {
    const port = String(closedPort);
    const mysql = fromMysqlShards({ ...settings({ MYSQL_PORT: port, FITNESS_SHARD_DATABASES: 'tidemark_fitness_0' }), dbPoolMax: 1 });
    const pg = fromPostgres(settings({ PG_PORT: port }));
    const ch = fromClickHouse(settings({ CLICKHOUSE_ENGINE: 'server', CLICKHOUSE_URL: `http://127.0.0.1:${port}` }), { database: null });
    try {
      const errors = {
        mysql: toTidemarkError(await rejection(() => mysql.shard(0).db.raw('SELECT 1')), 'fitness-shard-0'),
        postgres: toTidemarkError(await rejection(() => pg.raw('SELECT 1')), 'orders'),
        clickhouse: toTidemarkError(await rejection(() => ch.query({ query: 'SELECT 1' })), 'clickhouse'),
      };
      for (const [engine, err] of Object.entries(errors)) {
        expect([engine, err]).toEqual([engine, expect.any(StoreUnavailableError)]);
        expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: true });
        expect(err.details).not.toHaveProperty('reason');
      }
    } finally {
      await Promise.allSettled([mysql.destroy(), pg.destroy(), ch.close()]);
    }
  });

  it('a server chain the client does not trust is refused in the handshake: typed, non-retriable CERTIFICATE_UNTRUSTED', async () => {
    const port = await tlsEndpoint({ crt: pki.serverCert, key: pki.serverKey });
    const kafkaSettings = settings({ KAFKA_BROKERS: `127.0.0.1:${port}`, KAFKA_SSL: 'verify', KAFKA_SSL_CA: pki.untrustedCa });
    const kafka = asTransportError(
      await rejection(() => ensureTopics(fromKafka(kafkaSettings), kafkaSettings, eventTopicSuffixes())),
      'kafka',
      'kafka',
    );
    const chSettings = settings({
      CLICKHOUSE_ENGINE: 'server',
      CLICKHOUSE_URL: `https://127.0.0.1:${port}`,
      CLICKHOUSE_TLS_CA: pki.untrustedCa,
    });
    const ch = fromClickHouse(chSettings, { database: null });
    try {
      const clickhouse = toTidemarkError(await rejection(() => ch.query({ query: 'SELECT 1' })), 'clickhouse');
      for (const err of [kafka, clickhouse]) {
        expect(err).toBeInstanceOf(TransportSecurityError);
        expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: false, details: { reason: 'CERTIFICATE_UNTRUSTED' } });
      }
    } finally {
      await ch.close();
    }
  });

  it('a certificate for another name is refused in the handshake: typed, non-retriable CERTIFICATE_NAME_MISMATCH', async () => {
    const port = await tlsEndpoint(issueServerCert(pki, 'elsewhere', 'DNS:elsewhere.tidemark.invalid'));
    const s = settings({ KAFKA_BROKERS: `localhost:${port}`, KAFKA_SSL: 'verify', KAFKA_SSL_CA: pki.ca });
    const err = asTransportError(await rejection(() => ensureTopics(fromKafka(s), s, eventTopicSuffixes())), 'kafka', 'kafka');
    expect(err).toBeInstanceOf(TransportSecurityError);
    expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: false, details: { reason: 'CERTIFICATE_NAME_MISMATCH' } });
  });
});
