// Tidemark pointed at a secured cluster, configured only through environment variables: MariaDB with
// verified TLS and a client certificate, PostgreSQL that accepts only TLS, Kafka over SASL_SSL with
// SCRAM-SHA-512 and ClickHouse over HTTPS, all private engines with a CA and certificates made by the
// test. Every role migrates and starts; an order and a fitness result go through the gateway, Kafka
// (direct producer and outbox relay) and the projector to a FRESH read model. With a CA that did not
// sign the PostgreSQL certificate, start-up stops with a typed error naming the engine and the settings.
import { rmSync } from 'node:fs';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { loadSettings, type Settings } from '../../src/config/settings';
import { waitFor } from '../../src/shared/lifecycle';
import { TransportSecurityError } from '../../src/shared/errors';
import { FitnessResultByIdDocument, OrderByIdDocument, PlaceOrderDocument, RecordFitnessResultDocument } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { testLogLevel } from '../support/logCapture';
import { TEST_JWT_SECRET } from '../support/testEnv';
import { authHeader } from '../support/tokens';
import { makeTestPki, type TestPki } from './support/certs';
import { privateDir } from './support/privateDir';
import { startTlsClickHouse, type TlsClickHouse } from './support/tlsClickHouse';
import { SCRAM_USER, startTlsKafka, type TlsKafka } from './support/tlsKafka';
import { startTlsMariadb, type TlsMariadb } from './support/tlsMariadb';
import { startTlsPostgres, type TlsPostgres } from './support/tlsPostgres';

jest.setTimeout(180000);

let pki: TestPki;
const engines: { pg?: TlsPostgres; kafka?: TlsKafka; mysql?: TlsMariadb; ch?: TlsClickHouse } = {};
let app: Tidemark | undefined;

/** The environment of a production deployment on the secured cluster (names instead of IP addresses). */
function securedEnv(): Record<string, string> {
  const { pg, kafka, mysql, ch } = engines as Required<typeof engines>;
  return {
    TIDEMARK_ENV: 'test',
    // authHeader(s, 'service') signs subject test-service, the trusted backend the suite writes as.
    AUTH_SERVICE_SUBJECTS: 'test-service',
    LOG_LEVEL: testLogLevel(),
    HTTP_PORT: '0',
    OPS_PORT: '0',
    STACK_MANAGE: 'false',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    MYSQL_HOST: 'localhost',
    MYSQL_PORT: String(mysql.port),
    MYSQL_USER: 'tidemark_x509',
    MYSQL_PASSWORD: mysql.password,
    MYSQL_TLS: 'verify',
    MYSQL_TLS_CA: pki.ca,
    MYSQL_TLS_CERT: pki.clientCert,
    MYSQL_TLS_KEY: pki.clientKey,
    FITNESS_SHARD_DATABASES: 'tidemark_fitness_0',
    PG_HOST: 'localhost',
    PG_PORT: String(pg.port),
    PG_USER: pg.user,
    PG_PASSWORD: pg.password,
    PG_DATABASE: 'tidemark_orders',
    PG_TLS: 'verify',
    PG_TLS_CA: pki.ca,
    KAFKA_BROKERS: kafka.saslSsl.replace('127.0.0.1', 'localhost'),
    KAFKA_SSL: 'verify',
    KAFKA_SSL_CA: pki.ca,
    KAFKA_SASL_MECHANISM: 'scram-sha-512',
    KAFKA_SASL_USERNAME: SCRAM_USER.username,
    KAFKA_SASL_PASSWORD: SCRAM_USER.password,
    KAFKA_PARTITIONS: '1',
    CLICKHOUSE_ENGINE: 'server',
    CLICKHOUSE_URL: ch.url.replace('127.0.0.1', 'localhost'),
    CLICKHOUSE_TLS_CA: pki.ca,
    RELAY_POLL_INTERVAL_MS: '50',
    PROJECTOR_FLUSH_INTERVAL_MS: '20',
    FRESHNESS_CACHE_MS: '0',
  };
}

const settings = (over: Record<string, string> = {}): Settings => loadSettings({ ...process.env, ...securedEnv(), ...over });

beforeAll(async () => {
  pki = makeTestPki(privateDir('pki'));
  const started = await Promise.allSettled([
    startTlsPostgres(pki).then((x) => (engines.pg = x)),
    startTlsKafka(pki).then((x) => (engines.kafka = x)),
    startTlsMariadb(pki).then((x) => (engines.mysql = x)),
    startTlsClickHouse(pki).then((x) => (engines.ch = x)),
  ]);
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}, 240000);

afterAll(async () => {
  await app?.stop();
  await Promise.allSettled(Object.values(engines).map((e) => e.stop()));
  if (pki) rmSync(pki.dir, { recursive: true, force: true });
});

describe('Tidemark on a secured cluster', () => {
  it('starts every role over TLS and SASL_SSL, and is ready', async () => {
    app = await startTidemark(settings());
    const ready = await waitFor(
      async () => {
        const res = await fetch(`${app!.ops.url}/readyz`);
        return res.status === 200 && ((await res.json()) as { status: string; stores: Record<string, boolean> });
      },
      { timeoutMs: 30000, intervalMs: 200, what: 'readiness on the secured cluster' },
    );
    expect(ready).toMatchObject({ status: 'ready', stores: { mysql: true, postgres: true, kafka: true, clickhouse: true } });
  });

  it('takes an order and a fitness result through Kafka and the projector to FRESH read models', async () => {
    const s = settings();
    const url = app!.gateway!.url;
    const client = await authHeader(s, 'service');
    const items = [{ sku: 'SKU-1', quantity: 2, unitPrice: '19.9' }];
    const order = { customerId: 'cust-tls', currency: 'EUR', idempotencyKey: 'tls-1', items };
    const placed = await execute(url, PlaceOrderDocument, { input: order }, client);
    expect(placed.errors).toBeUndefined();
    expect(placed.data!.placeOrder.outcome).toBe('PUBLISHED_DIRECT');
    const orderId = placed.data!.placeOrder.order.orderId;
    const input = { detectId: 10001, userId: 4, projectId: 3, schoolId: 77, grade: 5, unit: 'm', result: '2.21' };
    const recorded = await execute(url, RecordFitnessResultDocument, { input }, client);
    expect(recorded.errors).toBeUndefined();
    const dataId = recorded.data!.recordFitnessResult.result.dataId;

    const fresh = async <T extends { freshness: { status: string } } | null | undefined>(what: string, read: () => Promise<T>) =>
      waitFor(
        async () => {
          const x = await read();
          return x && x.freshness.status === 'FRESH' && x;
        },
        { timeoutMs: 60000, intervalMs: 200, what },
      );
    const shownOrder = await fresh('order projected', async () => (await execute(url, OrderByIdDocument, { orderId }, client)).data?.order);
    expect(shownOrder.order).toMatchObject({ orderId, customerId: 'cust-tls', total: '39.8000' });
    const lookup = async () => (await execute(url, FitnessResultByIdDocument, { dataId }, client)).data?.fitnessResult;
    expect(await fresh('fitness result relayed and projected', lookup)).toMatchObject({ dataId, result: { result: '2.210' } });
  });

  it('refuses to start when PG_TLS_CA did not sign the PostgreSQL certificate, naming the engine and the settings', async () => {
    const err = await startTidemark(settings({ PG_TLS_CA: pki.untrustedCa, TIDEMARK_ROLES: 'gateway' })).then(
      async (unexpected) => {
        await unexpected.stop();
        throw new Error('start-up was expected to fail');
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TransportSecurityError);
    expect((err as Error).message).toBe(
      'postgres refused the connection: the server certificate is not signed by a trusted CA (check PG_TLS*)',
    );
  });
});
