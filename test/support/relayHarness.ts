// Shared set-up of the relay integration suites: a private environment, a sink on the real broker and
// one on a closed port (a real outage), both stores' publication tables emptied before each test, fresh
// metrics per test, and relay dependencies with a deterministic backoff. Call inside a describe block.
import type { Knex } from 'knex';
import { fromKafka } from '../../src/infra/kafka/fromKafka';
import { createRegistry, type Registry } from '../../src/metrics/registry';
import { kafkaFirstMetrics, type KafkaFirstMetrics } from '../../src/publication/kafkaFirst/metrics';
import type { PublicationStore } from '../../src/publication/stores';
import { exponentialBackoff, type RetryPolicy } from '../../src/shared/backoff';
import { fromKafkaSink, type EventSink } from '../../src/relay/kafkaSink';
import { outboxMetrics, type OutboxMetrics } from '../../src/publication/outbox/metrics';
import type { PublicationTable } from '../../src/publication/relayPort/publicationTable';
import type { BatchReport, RelayDeps } from '../../src/relay/relayDeps';
import { relayOnce } from '../../src/relay/relayEngine';
import { startRelayLoop, type RelayLoop, type RelayLoopOptions } from '../../src/relay/relayLoop';
import { createTestEnv, type TestEnv } from './testEnv';
import { mysqlStore, postgresStore, tableOf, testRelayDeps, type TableKind } from './relayDeps';

export { mysqlStore, postgresStore, tableOf, testRelayDeps, type TableKind };
// The engine as the publication tables' own specs (src/publication/**) drive it: they test statements
// through a real relay pass, yet src/publication never imports src/relay.
export { fromKafkaSink, relayOnce, type BatchReport, type EventSink };

export interface RelayHarness {
  env: TestEnv;
  topic: string;
  good: EventSink;
  down: EventSink;
  mysql: PublicationStore;
  pg: PublicationStore;
  registry: Registry;
  /** The outbox metrics of `registry` (fresh per test). */
  metrics: OutboxMetrics;
  kfMetrics: KafkaFirstMetrics;
  policy(over?: Partial<{ baseMs: number; maxMs: number; maxAttempts: number }>): RetryPolicy;
  table(store: PublicationStore, kind?: TableKind): PublicationTable;
  deps(store: PublicationStore, sink: EventSink, over?: Partial<RelayDeps>, kind?: TableKind): RelayDeps;
  once(store: PublicationStore, sink: EventSink, over?: Partial<RelayDeps>, kind?: TableKind): Promise<BatchReport>;
  loop(store: PublicationStore, sink: EventSink, over?: Partial<RelayDeps>, loop?: RelayLoopOptions, kind?: TableKind): RelayLoop;
  statuses(db: Knex): Promise<{ event_id: string; status: string; attempts: number; claim_token: string | null }[]>;
  total(m: { get(): Promise<{ values: { value: number }[] }> }): Promise<number>;
}

export function useRelayHarness(): RelayHarness {
  const h = {
    policy: (over = {}) => exponentialBackoff({ baseMs: 50, maxMs: 200, maxAttempts: 10, random: () => 1, ...over }),
    table: tableOf,
    deps: (store, sink, over = {}, kind = 'outbox') => testRelayDeps(store, sink, over, kind, h.registry),
    once: (store, sink, over, kind) => relayOnce(h.table(store, kind), h.deps(store, sink, over, kind)),
    loop: (store, sink, over, loop, kind) => startRelayLoop(h.table(store, kind), h.deps(store, sink, over, kind), loop),
    statuses: async (db) => db('outbox_events').select('event_id', 'status', 'attempts', 'claim_token').orderBy('id'),
    total: async (m) => (await m.get()).values.reduce((s, v) => s + v.value, 0),
  } as RelayHarness;

  beforeAll(async () => {
    h.env = await createTestEnv();
    h.topic = h.env.resources.topics.events.fitness;
    h.good = fromKafkaSink(h.env.resources.kafka, { timeoutMs: 5000 });
    h.down = fromKafkaSink(fromKafka({ ...h.env.settings, kafkaBrokers: ['127.0.0.1:1'] }), { timeoutMs: 300 });
    h.mysql = mysqlStore(h.env);
    h.pg = postgresStore(h.env);
  });
  afterAll(async () => {
    await h.good?.close();
    await h.down?.close();
    await h.env?.cleanup();
  });
  beforeEach(async () => {
    h.registry = createRegistry(false);
    h.metrics = outboxMetrics(h.registry);
    h.kfMetrics = kafkaFirstMetrics(h.registry);
    for (const db of [h.mysql.db, h.pg.db]) {
      await db('outbox_events').delete();
      await db('event_publications').delete();
    }
  });
  return h;
}
