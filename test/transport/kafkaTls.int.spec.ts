// Kafka over TLS and SASL_SSL/SCRAM: a private broker whose client listeners are all encrypted with a
// CA and certificates made by the test. Tidemark's own clients, built from environment variables through
// loadSettings, create the topics, publish through the relay's sink, the kafka-first direct producer and
// read back; the cluster probe and the stack manager's probe answer. An untrusted CA and a wrong SCRAM
// password are refused with typed errors. SCRAM without TLS (SASL_PLAINTEXT) works too, with a warning, and
// production refuses it unless ALLOW_INSECURE_TRANSPORT=true.
import { eventTopicSuffixes } from '../../src/domains/registry';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kafka } from 'kafkajs';
import { ConfigError, loadSettings, settingsWarnings, type Settings } from '../../src/config/settings';
import { kafkaService } from '../../src/devstack/kafka';
import { repoRoot } from '../../src/devstack/stack';
import { fromKafkaClusterProbe } from '../../src/infra/kafka/clusterProbe';
import { ensureTopics, fromKafka } from '../../src/infra/kafka/fromKafka';
import { asTransportError } from '../../src/infra/tls';
import { fromDirectKafkaProducer } from '../../src/publication/kafkaFirst/recordSender';
import { fromKafkaSink } from '../../src/relay/kafkaSink';
import { TransportSecurityError } from '../../src/shared/errors';
import { readTopic } from '../support/readTopic';
import { makeTestPki, type TestPki } from './support/certs';
import { privateDir } from './support/privateDir';
import { SCRAM_USER, startTlsKafka, type TlsKafka } from './support/tlsKafka';

let pki: TestPki;
let broker: TlsKafka;

beforeAll(async () => {
  pki = makeTestPki(privateDir('pki'));
  broker = await startTlsKafka(pki);
}, 240000);

afterAll(async () => {
  await broker?.stop();
  if (pki) rmSync(pki.dir, { recursive: true, force: true });
});

function settings(env: Record<string, string>): Settings {
  return loadSettings({
    ...process.env,
    TIDEMARK_ENV: 'test',
    KAFKA_TOPIC_PREFIX: `tidemark-tls-${randomUUID().slice(0, 8)}`,
    KAFKA_PARTITIONS: '1',
    ...env,
  });
}

/** Creates the topics, publishes one record through the relay's sink and reads it back. */
async function roundTrip(s: Settings): Promise<void> {
  const kafka: Kafka = fromKafka(s);
  const topics = await ensureTopics(kafka, s, eventTopicSuffixes());
  const sink = fromKafkaSink(kafka, { timeoutMs: 15000 });
  try {
    const value = JSON.stringify({ eventId: randomUUID(), over: 'tls' });
    const result = await sink.publish([{ id: 1, topic: topics.events.orders, key: 'order-1', value, headers: {} }]);
    expect(result).toEqual({ sent: [1], failed: [] });
    const read = await readTopic(kafka, topics.events.orders, (m) => m.length >= 1);
    expect(read[0]!.envelope).toEqual(JSON.parse(value));
  } finally {
    await sink.close();
  }
}

async function refusal(s: Settings): Promise<unknown> {
  return ensureTopics(fromKafka(s), s, eventTopicSuffixes()).then(
    () => {
      throw new Error('the connection was expected to be refused');
    },
    (err: unknown) => asTransportError(err, 'kafka', 'kafka'),
  );
}

describe('Kafka over TLS', () => {
  it('publishes and consumes over SSL with KAFKA_SSL=verify and KAFKA_SSL_CA; probes answer', async () => {
    const s = settings({ KAFKA_BROKERS: broker.ssl, KAFKA_SSL: 'verify', KAFKA_SSL_CA: pki.ca });
    await roundTrip(s);
    // The kafka-first direct producer and the circuit's cluster probe build their own clients.
    const topic = `${s.kafkaTopicPrefix}.orders`;
    const direct = fromDirectKafkaProducer(s, 10000);
    await direct.connect();
    await direct.send({ topic, acks: -1, messages: [{ key: 'order-2', value: JSON.stringify({ eventId: 'direct' }) }] });
    await direct.disconnect();
    await fromKafkaClusterProbe(s, [topic], 5000)();
    // The stack manager's probe (npm run stack -- status) reaches the secured broker too.
    const stackDir = mkdtempSync(join(tmpdir(), 'tidemark-stack-'));
    try {
      expect(await kafkaService({ settings: s, dir: stackDir, root: repoRoot, log: () => undefined }).check()).toBe(true);
    } finally {
      rmSync(stackDir, { recursive: true, force: true });
    }
  });

  it('authenticates with SCRAM-SHA-256 and SCRAM-SHA-512 over SASL_SSL', async () => {
    for (const mechanism of ['scram-sha-256', 'scram-sha-512']) {
      const sasl = { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: SCRAM_USER.username, KAFKA_SASL_PASSWORD: SCRAM_USER.password };
      await roundTrip(settings({ KAFKA_BROKERS: broker.saslSsl, KAFKA_SSL: 'verify', KAFKA_SSL_CA: pki.ca, ...sasl }));
    }
  });

  it('presents KAFKA_SSL_CERT/KAFKA_SSL_KEY to a listener that requires a client certificate', async () => {
    const mtls = { KAFKA_BROKERS: broker.mtls, KAFKA_SSL: 'verify', KAFKA_SSL_CA: pki.ca };
    await roundTrip(settings({ ...mtls, KAFKA_SSL_CERT: pki.clientCert, KAFKA_SSL_KEY: pki.clientKey }));
    const err = await refusal(settings(mtls));
    expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE', details: { reason: 'CLIENT_CERTIFICATE_REQUIRED' } });
  });

  it('refuses a broker certificate that KAFKA_SSL_CA did not sign, with a typed, non-retriable error', async () => {
    const err = await refusal(settings({ KAFKA_BROKERS: broker.ssl, KAFKA_SSL: 'verify', KAFKA_SSL_CA: pki.untrustedCa }));
    expect(err).toBeInstanceOf(TransportSecurityError);
    const details = { store: 'kafka', reason: 'CERTIFICATE_UNTRUSTED' };
    expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: false, details });
    expect((err as Error).message).toBe(
      'kafka refused the connection: the server certificate is not signed by a trusted CA (check KAFKA_SSL*)',
    );
  });

  it('refuses a wrong SCRAM password with a typed error', async () => {
    const sasl = { KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: SCRAM_USER.username, KAFKA_SASL_PASSWORD: 'wrong-password' };
    const err = await refusal(settings({ KAFKA_BROKERS: broker.saslSsl, KAFKA_SSL: 'verify', KAFKA_SSL_CA: pki.ca, ...sasl }));
    expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE', details: { reason: 'AUTHENTICATION_FAILED' } });
    expect((err as Error).message).toMatch(/rejected the SASL credentials \(check KAFKA_SASL_\*\)$/);
  });

  describe('SASL without TLS (SASL_PLAINTEXT)', () => {
    const scram = (mechanism: string, password = SCRAM_USER.password) => ({
      KAFKA_SASL_MECHANISM: mechanism,
      KAFKA_SASL_USERNAME: SCRAM_USER.username,
      KAFKA_SASL_PASSWORD: password,
    });

    it('authenticates with SCRAM-SHA-256 and SCRAM-SHA-512 with KAFKA_SSL off, with a warning that records travel in plaintext', async () => {
      for (const mechanism of ['scram-sha-256', 'scram-sha-512']) {
        const s = settings({ KAFKA_BROKERS: broker.saslPlaintext, ...scram(mechanism) });
        expect(s.kafkaSsl).toBe('off');
        expect(settingsWarnings(s).join('\n')).toMatch(/KAFKA_SASL_MECHANISM without KAFKA_SSL/);
        await roundTrip(s);
      }
    });

    it('refuses a wrong SCRAM password with a typed, non-retriable error', async () => {
      const err = await refusal(settings({ KAFKA_BROKERS: broker.saslPlaintext, ...scram('scram-sha-512', 'wrong-password') }));
      expect(err).toBeInstanceOf(TransportSecurityError);
      expect(err).toMatchObject({
        code: 'STORE_UNAVAILABLE',
        retriable: false,
        details: { store: 'kafka', reason: 'AUTHENTICATION_FAILED' },
      });
    });

    it('is refused in production (KAFKA_SSL=off) unless ALLOW_INSECURE_TRANSPORT=true, which then connects', async () => {
      const env = {
        ...process.env,
        TIDEMARK_ENV: 'production',
        AUTH_JWT_SECRET: 'x'.repeat(32),
        KAFKA_BROKERS: broker.saslPlaintext,
        KAFKA_TOPIC_PREFIX: `tidemark-tls-${randomUUID().slice(0, 8)}`,
        KAFKA_PARTITIONS: '1',
        KAFKA_SSL: 'off',
        ...scram('scram-sha-256'),
      };
      let problems: string[] = [];
      try {
        loadSettings(env);
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        problems = e.problems;
      }
      expect(problems).toContainEqual(expect.stringMatching(/^KAFKA_SSL=off sends every event in plaintext: set KAFKA_SSL=verify\./));
      const s = loadSettings({ ...env, ALLOW_INSECURE_TRANSPORT: 'true' });
      expect(settingsWarnings(s)).toContainEqual(expect.stringMatching(/^ALLOW_INSECURE_TRANSPORT=true: KAFKA_SSL=off/));
      await roundTrip(s);
    });
  });
});
