// Freshness markers from real persisted state: outbox_events / event_publications rows in MySQL and
// PostgreSQL, Kafka log end offsets and timestamps, and the projector's ClickHouse checkpoints; and a
// STALE marker naming the store when any of them cannot be read (a closed Kafka port, ClickHouse
// cut through a TCP proxy), healing once it can.
import { eventTopicSuffixes } from '../../domains/registry';
import type { Producer } from 'kafkajs';
import { ensureTopics, fromKafka, type Topics } from '../../infra/kafka/fromKafka';
import { fromClickHouse } from '../../infra/clickhouse/fromClickHouse';
import { startTcpProxy } from '../../../test/support/tcpProxy';
import { fromKafkaProducer } from '../../infra/kafka/producer';
import knex from 'knex';
import { createRegistry } from '../../metrics/registry';
import { toKafkaRecord, type DomainEvent } from '../../publication/event';
import { exponentialBackoff } from '../../shared/backoff';
import { systemClock } from '../../shared/clock';
import { waitFor } from '../../shared/lifecycle';
import { silentLogger } from '../../shared/logger';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { itWithClickHouseServer } from '../../../test/support/clickhouseServerOnly';
import { fitnessEvent, orderEvent, produceEvents } from '../../../test/support/projectionEvents';
import { startProjector } from '../projector';
import { createFreshnessService, type FreshnessService } from './freshnessService';
import { fromPublicationStores, type PendingPublications } from './pendingPublications';
import { fromKafkaAndCheckpoints, type ProjectionProgressDeps } from './projectionProgress';

const campaign = { detectId: 10001, projectId: 3, schoolId: 7, grade: 5, userId: 4 };

describe('freshness marker', () => {
  let env: TestEnv;
  let producer: Producer;
  const services: FreshnessService[] = [];

  beforeAll(async () => {
    env = await createTestEnv();
    producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
  });
  afterAll(async () => {
    for (const s of services) await s.close();
    await producer?.disconnect();
    await env?.cleanup();
  });

  let n = 0;
  async function freshTopics(): Promise<Topics> {
    return ensureTopics(
      env.resources.kafka,
      { ...env.settings, kafkaTopicPrefix: `${env.settings.kafkaTopicPrefix}.f${++n}` },
      eventTopicSuffixes(),
    );
  }
  function service(
    topics: Topics,
    pending?: PendingPublications,
    cacheMs = 0,
    progress: Partial<ProjectionProgressDeps> = {},
  ): FreshnessService {
    const s = createFreshnessService({
      pending: pending ?? fromPublicationStores({ shards: env.resources.mysql, pg: env.resources.pg }),
      progress: fromKafkaAndCheckpoints({
        kafka: env.resources.kafka,
        clickhouse: env.resources.clickhouse,
        database: env.settings.clickhouseDatabase,
        topics,
        consumer: `${topics.events.fitness}.projector`,
        staleAfterMs: 60000,
        ...progress,
      }),
      clock: systemClock,
      cacheMs,
      staleAfterMs: 60000,
    });
    services.push(s);
    return s;
  }

  async function outboxRow(e: DomainEvent, status: string, createdAt = new Date()) {
    const r = toKafkaRecord(e);
    await env.resources.mysql
      .shard(e.shard)
      .db('outbox_events')
      .insert({
        event_id: e.eventId,
        domain: e.domain,
        aggregate_id: e.aggregateId,
        version: e.version,
        topic: 'x',
        message_key: r.key,
        message_value: r.value,
        headers: JSON.stringify(r.headers),
        status,
        created_at: createdAt,
      });
  }
  async function fallbackRow(e: DomainEvent, status: string) {
    const r = toKafkaRecord(e);
    await env.resources.pg('event_publications').insert({
      event_id: e.eventId,
      domain: e.domain,
      aggregate_id: e.aggregateId,
      version: e.version,
      topic: 'x',
      message_key: r.key,
      message_value: r.value,
      headers: JSON.stringify(r.headers),
      status,
      source: 'DIRECT_FALLBACK',
      direct_attempts: 3,
      relay_attempts: 0,
      replay_count: 0,
      next_attempt_at: new Date(),
    });
  }

  it('says CATCHING_UP while a publication in scope is pending, and only for that scope', async () => {
    const f = service(await freshTopics());
    await outboxRow(fitnessEvent({ ...campaign, dataId: 101, result: '2.210', version: 1 }), 'NEW');
    await outboxRow(fitnessEvent({ ...campaign, dataId: 201, result: '2.310', version: 2 }), 'FAILED');
    expect(await f.forScope({ domain: 'fitness', dataEquals: { detectId: 10001 } })).toMatchObject({
      status: 'CATCHING_UP',
      reason: 'PENDING_PUBLICATIONS',
      pendingPublications: 2,
    });
    expect(await f.forScope({ domain: 'fitness', dataEquals: { detectId: 10001, projectId: 3 } })).toMatchObject({
      status: 'CATCHING_UP',
      pendingPublications: 2,
    });
    expect(await f.forScope({ domain: 'fitness', dataEquals: { detectId: 99999 } })).toMatchObject({
      status: 'FRESH',
      reason: 'UP_TO_DATE',
      pendingPublications: 0,
      lagMs: 0,
    });
    // Per aggregate, batched: one answer per id, each routed to its own shard.
    const per = await f.forAggregates('fitness', ['101', '201', '301', '1']);
    expect(per.map((x) => x.status)).toEqual(['CATCHING_UP', 'CATCHING_UP', 'FRESH', 'FRESH']);
  });

  it('says STALE for parked events in scope and for a pending event older than the threshold', async () => {
    const f = service(await freshTopics());
    await outboxRow(fitnessEvent({ ...campaign, detectId: 20001, dataId: 401, result: '1.000', version: 1 }), 'PARKED');
    expect(await f.forScope({ domain: 'fitness', dataEquals: { detectId: 20001 } })).toMatchObject({
      status: 'STALE',
      reason: 'PARKED_OR_DEAD_LETTERED',
      pendingPublications: 1,
    });
    await outboxRow(
      fitnessEvent({ ...campaign, detectId: 20002, dataId: 501, result: '1.000', version: 1 }),
      'NEW',
      new Date(Date.now() - 120000),
    );
    const old = await f.forScope({ domain: 'fitness', dataEquals: { detectId: 20002 } });
    expect(old).toMatchObject({ status: 'STALE', reason: 'PENDING_TOO_OLD' });
    expect(old.lagMs).toBeGreaterThanOrEqual(120000);
  });

  it('reads kafka-first fallback rows of orders in PostgreSQL, scoped by order time', async () => {
    const f = service(await freshTopics());
    await fallbackRow(
      orderEvent({ orderId: 'a0000000-0000-4000-8000-000000000001', createdAt: '2026-03-02T10:00:00.000Z' }),
      'NOT_PUBLISHED',
    );
    const march2 = { createdFrom: new Date('2026-03-02T00:00:00Z'), createdTo: new Date('2026-03-03T00:00:00Z') };
    expect(await f.forScope({ domain: 'orders', ...march2 })).toMatchObject({ status: 'CATCHING_UP', pendingPublications: 1 });
    expect(await f.forScope({ domain: 'orders', createdFrom: new Date('2026-03-03T00:00:00Z') })).toMatchObject({ status: 'FRESH' });
    await fallbackRow(
      orderEvent({ orderId: 'a0000000-0000-4000-8000-000000000002', createdAt: '2026-03-02T11:00:00.000Z' }),
      'DEAD_LETTER',
    );
    expect(await f.forScope({ domain: 'orders', ...march2 })).toMatchObject({
      status: 'STALE',
      reason: 'PARKED_OR_DEAD_LETTERED',
      pendingPublications: 2,
    });
    expect((await f.forAggregates('orders', ['a0000000-0000-4000-8000-000000000001']))[0]).toMatchObject({ status: 'CATCHING_UP' });
  });

  it('says CATCHING_UP while the projector is behind the log end, and FRESH once it caught up', async () => {
    const topics = await freshTopics();
    const f = service(topics);
    const scope = { domain: 'fitness' as const, dataEquals: { detectId: 30001 } };
    await produceEvents(producer, topics.events.fitness, [
      fitnessEvent({ ...campaign, detectId: 30001, dataId: 601, result: '2.000', version: 1 }),
    ]);
    expect(await f.forScope(scope)).toMatchObject({ status: 'CATCHING_UP', reason: 'CONSUMER_LAG', lagMessages: 1, watermark: null });

    const projector = await startProjector({
      kafka: env.resources.kafka,
      clickhouse: env.resources.clickhouse,
      database: env.settings.clickhouseDatabase,
      topics,
      groupId: `${topics.events.fitness}.projector`,
      batchSize: 100,
      flushIntervalMs: 20,
      concurrentPartitions: 3,
      retry: exponentialBackoff({ baseMs: 50, maxMs: 200, maxAttempts: Infinity }),
      clock: systemClock,
      logger: silentLogger,
      registry: createRegistry(false),
    });
    try {
      const fresh = await waitFor(
        async () => {
          const x = await f.forScope(scope);
          return x.status === 'FRESH' && x;
        },
        { timeoutMs: 30000, what: 'FRESH after the projector applied the event' },
      );
      expect(fresh).toMatchObject({ reason: 'UP_TO_DATE', lagMs: 0, lagMessages: 0 });
    } finally {
      await projector.stop();
    }
  });

  it('says STALE when a message published long ago is still unapplied (projector stalled)', async () => {
    const topics = await freshTopics();
    const f = service(topics);
    const e = fitnessEvent({ ...campaign, dataId: 701, result: '2.000', version: 1 });
    // A real message with a CreateTime two minutes ago: what a stopped projector leaves behind.
    await producer.send({
      topic: topics.events.fitness,
      acks: -1,
      messages: [{ ...toKafkaRecord(e), timestamp: String(Date.now() - 120000) }],
    });
    expect(await f.forScope({ domain: 'fitness', dataEquals: { detectId: 40001 } })).toMatchObject({
      status: 'STALE',
      reason: 'PROJECTOR_STALLED',
      lagMessages: 1,
    });
  });

  it('says STALE (state unknown) naming the store it cannot read, and still answers', async () => {
    // A real pg client against a closed port (knex's own connection-error logging silenced).
    const quiet = { warn: () => undefined, error: () => undefined, debug: () => undefined, deprecate: () => undefined };
    const deadPg = knex({
      client: 'pg',
      connection: { host: '127.0.0.1', port: 1, user: 'x', database: 'x', connectionTimeoutMillis: 500 },
      pool: { min: 0, max: 1 },
      log: quiet,
    });
    try {
      const f = service(await freshTopics(), fromPublicationStores({ shards: env.resources.mysql, pg: deadPg }));
      const x = await f.forScope({ domain: 'orders' });
      expect(x).toMatchObject({ status: 'STALE', reason: 'STATE_UNKNOWN', watermark: null });
      expect(x.detail).toContain('postgres');
    } finally {
      await deadPg.destroy();
    }
  });

  it('says STALE (state unknown) naming Kafka when the log end offsets cannot be read', async () => {
    const errors: string[] = [];
    const closedKafka = fromKafka({ ...env.settings, kafkaBrokers: ['127.0.0.1:1'] });
    const f = service(await freshTopics(), undefined, 0, { kafka: closedKafka, timeoutMs: 5000, onError: (store) => errors.push(store) });
    const x = await f.forScope({ domain: 'fitness', dataEquals: { detectId: 50001 } });
    expect(x).toMatchObject({ status: 'STALE', reason: 'STATE_UNKNOWN', watermark: null });
    expect(x.detail).toContain('kafka');
    expect(x.detail).not.toContain('clickhouse');
    expect(errors).toEqual(['kafka']);
  });

  itWithClickHouseServer(
    'says STALE (state unknown) naming ClickHouse while the checkpoints cannot be read, and answers normally once they can',
    async () => {
      const topics = await freshTopics();
      const url = new URL(env.settings.clickhouseUrl);
      const proxy = await startTcpProxy(url.hostname, Number(url.port));
      const viaProxy = fromClickHouse({ ...env.settings, clickhouseUrl: `http://127.0.0.1:${proxy.port}` });
      const errors: string[] = [];
      try {
        const f = service(topics, undefined, 0, { clickhouse: viaProxy, timeoutMs: 5000, onError: (store) => errors.push(store) });
        // A window no order of this file falls in: only the projector's progress can make it unfresh.
        const scope = { domain: 'orders' as const, createdFrom: new Date('2040-01-01T00:00:00Z') };
        expect(await f.forScope(scope)).toMatchObject({ status: 'FRESH', reason: 'UP_TO_DATE' });
        proxy.cut();
        const cut = await f.forScope(scope);
        expect(cut).toMatchObject({ status: 'STALE', reason: 'STATE_UNKNOWN', watermark: null });
        expect(cut.detail).toContain('clickhouse');
        expect(cut.detail).not.toContain('kafka');
        expect(errors).toEqual(['clickhouse']);
        proxy.restore();
        expect(
          await waitFor(
            async () => {
              const back = await f.forScope(scope);
              return back.status === 'FRESH' && back;
            },
            { timeoutMs: 10000, intervalMs: 100, what: 'FRESH once ClickHouse answers again' },
          ),
        ).toMatchObject({ reason: 'UP_TO_DATE' });
      } finally {
        await viaProxy.close();
        await proxy.close();
      }
    },
  );

  it('shares the pending read between concurrent requests only, never with a later one, whatever the cache period', async () => {
    let asked = 0;
    const real = fromPublicationStores({ shards: env.resources.mysql, pg: env.resources.pg });
    const counting: PendingPublications = {
      summarize: (s) => (asked++, real.summarize(s)),
      byAggregate: (d, ids) => real.byAggregate(d, ids),
      pendingAggregates: (d) => real.pendingAggregates(d),
    };
    const f = service(await freshTopics(), counting, 60000);
    const [a, b] = await Promise.all([f.forScope({ domain: 'fitness' }), f.forScope({ domain: 'fitness' })]);
    expect(asked).toBe(1);
    expect(b.asOf).toEqual(a.asOf);
    const c = await f.forScope({ domain: 'fitness' });
    expect(asked).toBe(2);
    expect(c.asOf.getTime()).toBeGreaterThanOrEqual(a.asOf.getTime());
  });
});
