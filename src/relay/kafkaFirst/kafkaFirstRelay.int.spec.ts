// The kafka-first relay over event_publications on both engines it supports (PostgreSQL and a
// MariaDB fitness shard), against real Kafka: PUBLISHED after relay, DEAD_LETTER on the third real
// failure (closed broker port) with a stored error summary, operator replay, the long-running loop
// and its metrics. Claim semantics (concurrency, expiry, SQL ordering): claimNextBatch.int.spec.ts.
import type { Knex } from 'knex';
import { fromKafkaProducer } from '../../infra/kafka/producer';
import { createRegistry } from '../../metrics/registry';
import { kafkaFirstMetrics } from '../../publication/kafkaFirst/metrics';
import { fromDirectKafkaProducer, fromProducerFactory, type RecordSender } from '../../publication/kafkaFirst/recordSender';
import type { PublicationStore } from '../../publication/kafkaFirst/stores';
import { waitFor } from '../../shared/lifecycle';
import { CLOSED_PORT_BROKER, readTopic } from '../../../test/support/kafkaProbe';
import { insertFallback, metricValue, RELAY_ENGINES, relayDeps, sampleEvent, storeFor } from '../../../test/support/kafkaFirst';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { relayOnce, refreshBacklogGauges, startKafkaFirstRelay } from './kafkaFirstRelay';
import { replayDeadLetters } from './replayDeadLetters';

let env: TestEnv;
let good: RecordSender;
let closed: RecordSender;

beforeAll(async () => {
  env = await createTestEnv();
  good = fromProducerFactory(() => fromKafkaProducer(env.resources.kafka), { resetAfterFailure: false });
  closed = fromProducerFactory(() => fromDirectKafkaProducer({ kafkaBrokers: [CLOSED_PORT_BROKER], kafkaClientId: 'relay-test' }, 500), { resetAfterFailure: true });
});
afterAll(async () => {
  await good?.close();
  await closed?.close();
  await env?.cleanup();
});

describe.each(RELAY_ENGINES)('kafka-first relay on %s', (engine, domain) => {
  let store: PublicationStore;
  let db: Knex;
  const registry = createRegistry(false);
  const metrics = kafkaFirstMetrics(registry);
  const row = (n: number) => db('event_publications').where({ event_id: sampleEvent(domain, n).eventId }).first();

  beforeAll(() => {
    store = storeFor(env, engine, domain);
    db = store.db;
  });
  beforeEach(async () => {
    await db('event_publications').delete();
  });

  it('publishes a fallback row and marks it PUBLISHED', async () => {
    await insertFallback(env, db, domain, 1);
    expect(await relayOnce(store, relayDeps(good, metrics))).toMatchObject({ claimed: 1, published: 1, failed: 0, claimLost: 0 });
    expect(await row(1)).toMatchObject({ status: 'PUBLISHED', claim_owner: null, claim_expires_at: null });
    expect((await row(1)).published_at).not.toBeNull();
    const topic = domain === 'orders' ? env.resources.topics.orders : env.resources.topics.fitnessResults;
    const id = sampleEvent(domain, 1).eventId;
    const msgs = await readTopic(env.resources.kafka, topic, (m) => m.some((x) => x.headers?.eventId?.toString() === id));
    expect(msgs.find((x) => x.headers?.eventId?.toString() === id)!.key!.toString()).toBe(sampleEvent(domain, 1).aggregateId);
    expect(await metricValue(registry, 'tidemark_kafka_first_relay_outcomes_total', { store: store.name, result: 'published' })).toBeGreaterThanOrEqual(1);
  });

  it('retries with backoff and moves the row to DEAD_LETTER on the third real failure; an operator replay makes it publishable again', async () => {
    await insertFallback(env, db, domain, 2);
    const failing = relayDeps(closed, metrics);
    const attempt = () => waitFor(async () => ((await relayOnce(store, failing)).claimed > 0 ? true : undefined), { timeoutMs: 10000, intervalMs: 20, what: 'a due row' });
    await attempt();
    const first = await row(2);
    expect(first).toMatchObject({ status: 'NOT_PUBLISHED', relay_attempts: 1, claim_owner: null, last_error_code: 'KafkaJSNumberOfRetriesExceeded' });
    expect(new Date(first.next_attempt_at).getTime()).toBeGreaterThan(new Date(first.created_at).getTime());
    expect(first.last_error_summary).toContain('ECONNREFUSED');
    await attempt();
    expect(await row(2)).toMatchObject({ status: 'NOT_PUBLISHED', relay_attempts: 2 });
    await attempt();
    expect(await row(2)).toMatchObject({ status: 'DEAD_LETTER', relay_attempts: 3 });
    // A dead letter is never claimed again by itself.
    expect((await relayOnce(store, relayDeps(good, metrics))).claimed).toBe(0);

    await refreshBacklogGauges(store, metrics);
    expect(await metricValue(registry, 'tidemark_kafka_first_dead_letter_rows', { store: store.name, domain })).toBe(1);
    expect(await metricValue(registry, 'tidemark_kafka_first_relay_outcomes_total', { store: store.name, result: 'failure' })).toBeGreaterThanOrEqual(2);
    expect(await metricValue(registry, 'tidemark_kafka_first_relay_outcomes_total', { store: store.name, result: 'dead_letter' })).toBeGreaterThanOrEqual(1);

    expect((await replayDeadLetters(db, { domain, limit: 10 })).map((x) => x.eventId)).toEqual([sampleEvent(domain, 2).eventId]);
    expect(await row(2)).toMatchObject({ status: 'NOT_PUBLISHED', relay_attempts: 0, replay_count: 1 });
    expect(await replayDeadLetters(db, { domain, limit: 10 })).toEqual([]);
    expect(await relayOnce(store, relayDeps(good, metrics))).toMatchObject({ claimed: 1, published: 1 });
    expect(await row(2)).toMatchObject({ status: 'PUBLISHED' });
  });

  it('runs as a long-lived loop that relays due rows and drains on stop()', async () => {
    const relay = startKafkaFirstRelay([store], relayDeps(good, metrics, { pollIntervalMs: 20, statsIntervalMs: 20 }));
    try {
      await insertFallback(env, db, domain, 50);
      await insertFallback(env, db, domain, 51);
      await waitFor(async () => ((await row(50)).status === 'PUBLISHED' && (await row(51)).status === 'PUBLISHED' ? true : undefined), { timeoutMs: 10000, what: 'the loop to relay' });
      await waitFor(async () => ((await metricValue(registry, 'tidemark_kafka_first_not_published_rows', { store: store.name, domain })) === 0 ? true : undefined), { timeoutMs: 5000, what: 'the gauges' });
    } finally {
      await relay.stop();
    }
    await insertFallback(env, db, domain, 52);
    expect((await row(52)).status).toBe('NOT_PUBLISHED');
  });
});
