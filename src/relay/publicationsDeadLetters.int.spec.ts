// A record the broker refuses, relayed from event_publications on both engines (PostgreSQL and a
// MariaDB fitness shard) against real Kafka: it fails alone (its neighbour is published), goes to
// DEAD_LETTER on its third failure with a safe error summary, is never claimed again by itself, and
// after the fix (the topic's record limit raised) an operator replay publishes it.
import type { Knex } from 'knex';
import { createRegistry } from '../metrics/registry';
import { kafkaFirstMetrics } from '../publication/kafkaFirst/metrics';
import { refreshBacklogGauges } from '../publication/kafkaFirst/publicationsTable';
import { replayDeadLetters } from '../publication/kafkaFirst/sql/replayDeadLetters';
import type { PublicationStore } from '../publication/stores';
import { exponentialBackoff } from '../shared/backoff';
import { waitFor } from '../shared/lifecycle';
import { insertFallback, metricValue, RELAY_ENGINES, sampleEvent, storeFor } from '../../test/support/kafkaFirst';
import { tableOf, testRelayDeps } from '../../test/support/relayHarness';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';
import { fromKafkaSink, type EventSink } from './kafkaSink';
import { relayOnce } from './relayEngine';

let env: TestEnv;
let good: EventSink;

beforeAll(async () => {
  env = await createTestEnv();
  good = fromKafkaSink(env.resources.kafka, { timeoutMs: 5000 });
});
afterAll(async () => {
  await good?.close();
  await env?.cleanup();
});

describe.each(RELAY_ENGINES)('kafka-first dead letters on %s', (engine, domain) => {
  let store: PublicationStore;
  let db: Knex;
  const registry = createRegistry(false);
  const metrics = kafkaFirstMetrics(registry);
  // KAFKA_FIRST_RELAY_MAX_ATTEMPTS' default: the third record failure dead-letters.
  const policy = exponentialBackoff({ baseMs: 20, maxMs: 60, maxAttempts: 3 });
  const row = (n: number) =>
    db('event_publications')
      .where({ event_id: sampleEvent(domain, n).eventId })
      .first();
  const pass = (sink: EventSink) =>
    relayOnce(tableOf(store, 'publications'), testRelayDeps(store, sink, { policy }, 'publications', registry));
  const topic = () => (domain === 'orders' ? env.resources.topics.events.orders : env.resources.topics.events.fitness);

  beforeAll(() => {
    store = storeFor(env, engine, domain);
    db = store.db;
  });
  beforeEach(async () => {
    await db('event_publications').delete();
  });

  it('dead-letters a record the broker refuses on its third failure; after the fix an operator replay publishes it', async () => {
    await insertFallback(env, db, domain, 3);
    await insertFallback(env, db, domain, 4);
    await db('event_publications')
      .where({ event_id: sampleEvent(domain, 3).eventId })
      .update({ message_value: 'x'.repeat(1_200_000) });
    const attempt = () =>
      waitFor(
        async () => {
          const x = await pass(good);
          return x.claimed > 0 && x;
        },
        { timeoutMs: 10000, intervalMs: 20, what: 'a due row' },
      );
    expect(await attempt()).toMatchObject({ claimed: 2, sent: 1, failed: 1 }); // the healthy row is not held back
    const first = await row(3);
    expect(first).toMatchObject({ status: 'NOT_PUBLISHED', relay_attempts: 1, claim_owner: null, last_error_code: 'MESSAGE_TOO_LARGE' });
    expect(new Date(first.next_attempt_at).getTime()).toBeGreaterThan(new Date(first.created_at).getTime());
    expect(first.last_error_summary).not.toContain('xxxx');
    await attempt();
    expect(await row(3)).toMatchObject({ status: 'NOT_PUBLISHED', relay_attempts: 2 });
    await attempt();
    expect(await row(3)).toMatchObject({ status: 'DEAD_LETTER', relay_attempts: 3 });
    // A dead letter is never claimed again by itself.
    expect((await pass(good)).claimed).toBe(0);

    await refreshBacklogGauges(store, metrics);
    expect(await metricValue(registry, 'tidemark_kafka_first_dead_letter_rows', { store: store.name, domain })).toBe(1);
    expect(
      await metricValue(registry, 'tidemark_kafka_first_relay_outcomes_total', { store: store.name, result: 'failure' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      await metricValue(registry, 'tidemark_kafka_first_relay_outcomes_total', { store: store.name, result: 'dead_letter' }),
    ).toBeGreaterThanOrEqual(1);

    // The fix: the topic accepts larger records (the operator raised max.message.bytes).
    const admin = env.resources.kafka.admin();
    await admin.connect();
    const config = { type: 2, name: topic(), configEntries: [{ name: 'max.message.bytes', value: '4194304' }] };
    await admin.alterConfigs({ validateOnly: false, resources: [config] }).finally(() => admin.disconnect());
    expect((await replayDeadLetters(db, { domain, limit: 10 })).map((x) => x.eventId)).toEqual([sampleEvent(domain, 3).eventId]);
    expect(await row(3)).toMatchObject({ status: 'NOT_PUBLISHED', relay_attempts: 0, replay_count: 1 });
    expect(await replayDeadLetters(db, { domain, limit: 10 })).toEqual([]);
    expect(await pass(good)).toMatchObject({ claimed: 1, sent: 1 });
    expect(await row(3)).toMatchObject({ status: 'PUBLISHED' });
  });
});
