// The relay engine over event_publications on both engines it supports (PostgreSQL and a MariaDB
// fitness shard), against real Kafka: PUBLISHED after relay; an outage (a closed broker port) spends no
// relay attempt and opens the circuit; the long-running loop relays due rows, and stop() finishes the
// batch in flight and claims nothing after. Dead letters and their replay:
// publicationsDeadLetters.int.spec.ts; claim semantics (concurrency, expiry, SQL ordering):
// publication/kafkaFirst/sql/claimNextBatch.int.spec.ts.
import type { Knex } from 'knex';
import { fromKafka } from '../infra/kafka/fromKafka';
import { kafkaCircuit } from '../infra/kafka/kafkaCircuit';
import { createRegistry } from '../metrics/registry';
import type { PublicationStore } from '../publication/stores';
import { sleep, waitFor } from '../shared/lifecycle';
import { silentLogger } from '../shared/logger';
import { readTopic } from '../../test/support/kafkaProbe';
import { insertFallback, metricValue, RELAY_ENGINES, sampleEvent, storeFor } from '../../test/support/kafkaFirst';
import { tableOf, testRelayDeps } from '../../test/support/relayHarness';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';
import { exponentialBackoff } from '../shared/backoff';
import { fromKafkaSink, type EventSink } from './kafkaSink';
import type { RelayDeps } from './relayDeps';
import { relayOnce } from './relayEngine';
import { startRelayLoop } from './relayLoop';

let env: TestEnv;
let good: EventSink;
let closed: EventSink;

beforeAll(async () => {
  env = await createTestEnv();
  good = fromKafkaSink(env.resources.kafka, { timeoutMs: 5000 });
  closed = fromKafkaSink(fromKafka({ ...env.settings, kafkaBrokers: ['127.0.0.1:1'] }), { timeoutMs: 500 });
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
  // KAFKA_FIRST_RELAY_MAX_ATTEMPTS' default: the third record failure dead-letters.
  const policy = exponentialBackoff({ baseMs: 20, maxMs: 60, maxAttempts: 3 });
  const row = (n: number) =>
    db('event_publications')
      .where({ event_id: sampleEvent(domain, n).eventId })
      .first();
  const deps = (sink: EventSink, over: Partial<RelayDeps> = {}) =>
    testRelayDeps(store, sink, { policy, ...over }, 'publications', registry);
  const pass = (sink: EventSink, over: Partial<RelayDeps> = {}) => relayOnce(tableOf(store, 'publications'), deps(sink, over));
  const topic = () => (domain === 'orders' ? env.resources.topics.events.orders : env.resources.topics.events.fitness);

  beforeAll(() => {
    store = storeFor(env, engine, domain);
    db = store.db;
  });
  beforeEach(async () => {
    await db('event_publications').delete();
  });

  it('publishes a fallback row and marks it PUBLISHED', async () => {
    await insertFallback(env, db, domain, 1);
    expect(await pass(good)).toMatchObject({ claimed: 1, sent: 1, failed: 0, claimLost: 0 });
    expect(await row(1)).toMatchObject({ status: 'PUBLISHED', claim_owner: null, claim_expires_at: null });
    expect((await row(1)).published_at).not.toBeNull();
    const id = sampleEvent(domain, 1).eventId;
    const msgs = await readTopic(env.resources.kafka, topic(), (m) => m.some((x) => x.headers?.eventId?.toString() === id));
    expect(msgs.find((x) => x.headers?.eventId?.toString() === id)!.key!.toString()).toBe(sampleEvent(domain, 1).aggregateId);
    expect(
      await metricValue(registry, 'tidemark_kafka_first_relay_outcomes_total', { store: store.name, result: 'published' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('an outage never counts: the row stays NOT_PUBLISHED with no relay attempt spent, and the circuit opens', async () => {
    await insertFallback(env, db, domain, 2);
    const circuit = kafkaCircuit({
      probe: async () => Promise.reject(new Error('down')),
      backoff: { delayMs: () => 60000 },
      logger: silentLogger,
    });
    try {
      for (let i = 1; i <= 4; i++) {
        const r = await waitFor(
          async () => {
            const x = await pass(closed, { circuit });
            return x.claimed > 0 && x;
          },
          { timeoutMs: 10000, intervalMs: 20, what: `outage pass ${i}` },
        );
        expect(r).toMatchObject({ claimed: 1, released: 1, failed: 0, gaveUp: 0, outage: true });
        expect(await row(2)).toMatchObject({ status: 'NOT_PUBLISHED', relay_attempts: 0, claim_owner: null });
      }
      expect(circuit.state).toBe('open');
      expect(['PUBLISH_TIMEOUT', 'KafkaJSNumberOfRetriesExceeded', 'KafkaJSConnectionError']).toContain((await row(2)).last_error_code);
    } finally {
      await circuit.stop();
    }
    expect(
      await waitFor(
        async () => {
          const x = await pass(good);
          return x.claimed > 0 && x;
        },
        { what: 'the pass after the outage' },
      ),
    ).toMatchObject({ sent: 1 });
  });

  it('runs as a long-lived loop; stop() finishes the batch in flight, then claims nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let publishes = 0;
    const gated: EventSink = {
      async publish(records) {
        publishes++;
        await gate;
        return good.publish(records);
      },
      close: async () => undefined,
    };
    const pollIntervalMs = 20;
    const loop = startRelayLoop(tableOf(store, 'publications'), deps(gated, { pollIntervalMs }));
    await insertFallback(env, db, domain, 50);
    await insertFallback(env, db, domain, 51);
    await waitFor(() => publishes > 0, { timeoutMs: 10000, intervalMs: 10, what: 'a batch in flight' });
    const stopped = loop.stop();
    release();
    await stopped;
    // What was in flight when stop() was called was completed, not abandoned.
    const inFlight = (await db('event_publications').whereNotNull('published_at').count('* as n').first()) as { n: string | number };
    expect(Number(inFlight.n)).toBeGreaterThanOrEqual(1);
    expect(Number(((await db('event_publications').whereNotNull('claim_owner').count('* as n').first()) as { n: string | number }).n)).toBe(
      0,
    );
    // After stop, nothing is claimed or published any more, over many poll intervals.
    const before = publishes;
    await insertFallback(env, db, domain, 52);
    await sleep(pollIntervalMs * 10);
    expect(await row(52)).toMatchObject({ status: 'NOT_PUBLISHED', claim_owner: null });
    expect(publishes).toBe(before);
  });
});
