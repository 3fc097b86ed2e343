// Shared set-up of the outbox relay integration suites: a private environment, a sink on the real
// broker and one on a closed port (a real outage), both outbox stores emptied before each test, and
// relay options with a deterministic backoff. Call inside a describe block.
import type { Knex } from 'knex';
import { fromKafka } from '../../src/infra/kafka/fromKafka';
import { createRegistry } from '../../src/metrics/registry';
import { exponentialBackoff, type RetryPolicy } from '../../src/relay/backoff';
import { fromKafkaSink, type EventSink } from '../../src/relay/outbox/kafkaSink';
import { outboxMetrics, type OutboxMetrics } from '../../src/relay/outbox/metrics';
import type { OutboxStore } from '../../src/relay/outbox/outboxStore';
import type { OutboxRelayOptions } from '../../src/relay/outbox/relay';
import { silentLogger } from '../../src/shared/logger';
import { createTestEnv, type TestEnv } from './testEnv';

export interface OutboxHarness {
  env: TestEnv;
  topic: string;
  good: EventSink;
  down: EventSink;
  mysql: OutboxStore;
  pg: OutboxStore;
  metrics: OutboxMetrics;
  policy(over?: Partial<{ baseMs: number; maxMs: number; maxAttempts: number }>): RetryPolicy;
  options(store: OutboxStore, sink: EventSink, over?: Partial<OutboxRelayOptions>): OutboxRelayOptions;
  statuses(db: Knex): Promise<{ event_id: string; status: string; attempts: number; claim_token: string | null }[]>;
  total(m: { get(): Promise<{ values: { value: number }[] }> }): Promise<number>;
}

export function useOutboxHarness(): OutboxHarness {
  const h = {
    policy: (over = {}) => exponentialBackoff({ baseMs: 50, maxMs: 200, maxAttempts: 10, random: () => 1, ...over }),
    options: (store, sink, over = {}) => ({
      store,
      sink,
      policy: h.policy(),
      batchSize: 100,
      pollIntervalMs: 20,
      leaseMs: 10000,
      publishTimeoutMs: 5000,
      owner: 'test-relay',
      metrics: h.metrics,
      logger: silentLogger,
      ...over,
    }),
    statuses: async (db) => db('outbox_events').select('event_id', 'status', 'attempts', 'claim_token').orderBy('id'),
    total: async (m) => (await m.get()).values.reduce((s, v) => s + v.value, 0),
  } as OutboxHarness;

  beforeAll(async () => {
    h.env = await createTestEnv();
    h.topic = h.env.resources.topics.fitnessResults;
    h.good = fromKafkaSink(h.env.resources.kafka, { timeoutMs: 5000 });
    h.down = fromKafkaSink(fromKafka({ ...h.env.settings, kafkaBrokers: ['127.0.0.1:1'] }), { timeoutMs: 300 });
    h.mysql = { kind: 'mysql', shard: 0, db: h.env.resources.mysql.shard(0).db };
    h.pg = { kind: 'postgres', shard: 0, db: h.env.resources.pg };
  });
  afterAll(async () => {
    await h.good?.close();
    await h.down?.close();
    await h.env?.cleanup();
  });
  beforeEach(async () => {
    h.metrics = outboxMetrics(createRegistry(false));
    await h.mysql.db('outbox_events').delete();
    await h.pg.db('outbox_events').delete();
  });
  return h;
}
