// The projector against the real engines: Kafka (real producer, real consumer group), ClickHouse.
import { eventTopicSuffixes } from '../domains/registry';
import type { Kafka, Producer } from 'kafkajs';
import { createRegistry } from '../metrics/registry';
import { fromClickHouse, type ClickHouseClient } from '../infra/clickhouse/fromClickHouse';
import { ensureTopics, type Topics } from '../infra/kafka/fromKafka';
import { fromKafkaProducer } from '../infra/kafka/producer';
import { ident, list, str, uint } from '../infra/clickhouse/literal';
import { waitFor } from '../shared/lifecycle';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';
import { itWithClickHouseServer } from '../../test/support/clickhouseServerOnly';
import { fitnessEvent, orderEvent, produceEvents } from '../../test/support/projectionEvents';
import { startTcpProxy } from '../../test/support/tcpProxy';
import { testProjectorOptions } from '../../test/support/projectorOptions';
import { toKafkaRecord } from '../publication/event';
import { DEAD_LETTER_HEADERS } from './deadLetters';
import { startProjector } from './projector';
import type { Projector, ProjectorOptions } from './projectorOptions';
import { padDecimal } from '../shared/decimal';

const campaign = { detectId: 10001, projectId: 3, schoolId: 7, grade: 5 };

describe('projector', () => {
  let env: TestEnv;
  let producer: Producer;
  let ch: ClickHouseClient;
  const running: Projector[] = [];

  beforeAll(async () => {
    env = await createTestEnv();
    producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
    ch = env.resources.clickhouse;
  });
  afterAll(async () => {
    for (const p of running) await p.stop();
    await producer?.disconnect();
    await env?.cleanup();
  });

  const db = () => ident(env.settings.clickhouseDatabase);

  const options = (over: Partial<ProjectorOptions> = {}): ProjectorOptions => testProjectorOptions(env, { clickhouse: ch, ...over });
  async function start(over: Partial<ProjectorOptions> = {}): Promise<Projector> {
    const p = await startProjector(options(over));
    running.push(p);
    return p;
  }
  async function stop(p: Projector): Promise<void> {
    await p.stop();
    running.splice(running.indexOf(p), 1);
  }

  /** Latest non-deleted state per data id (argMax by version), as reports must read it. */
  async function latest(ids: number[]): Promise<Map<number, { result: string; version: number }>> {
    const rs = await ch.query({
      query: `SELECT data_id, toString(argMax(result, version)) AS l_result, max(version) AS l_version, argMax(is_deleted, version) AS l_deleted
              FROM ${db()}.fitness_results WHERE data_id IN ${list(ids, uint)} GROUP BY data_id HAVING l_deleted = 0`,
      format: 'JSONEachRow',
    });
    const rows = await rs.json<{ data_id: string; l_result: string; l_version: string }>();
    // Decimal text as the read models print it (current releases drop trailing zeros in toString).
    return new Map(rows.map((r) => [Number(r.data_id), { result: padDecimal(r.l_result, 3), version: Number(r.l_version) }]));
  }

  async function endOffsets(topic: string): Promise<Map<number, string>> {
    const admin = env.resources.kafka.admin();
    await admin.connect();
    try {
      return new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, p.high]));
    } finally {
      await admin.disconnect();
    }
  }
  async function committed(groupId: string, topic: string): Promise<Map<number, string>> {
    const admin = env.resources.kafka.admin();
    await admin.connect();
    try {
      const [t] = await admin.fetchOffsets({ groupId, topics: [topic] });
      return new Map(t!.partitions.map((p) => [p.partition, p.offset]));
    } finally {
      await admin.disconnect();
    }
  }
  async function checkpoints(groupId: string, topic: string): Promise<Map<number, string>> {
    const rs = await ch.query({
      query: `SELECT partition, toString(max(next_offset)) AS o FROM ${db()}.projection_checkpoints
               WHERE consumer = ${str(groupId)} AND topic = ${str(topic)} GROUP BY partition`,
      format: 'JSONEachRow',
    });
    return new Map((await rs.json<{ partition: number; o: string }>()).map((r) => [Number(r.partition), r.o]));
  }
  async function caughtUp(groupId: string, topic: string): Promise<boolean> {
    const [end, cp, co] = await Promise.all([endOffsets(topic), checkpoints(groupId, topic), committed(groupId, topic)]);
    return [...end].every(([p, high]) => high === '0' || (cp.get(p) === high && co.get(p) === high));
  }

  /**
   * A Kafka client whose consumers, before each offset commit on `topic`, count the rows ClickHouse
   * already holds below the offset being committed (of `ids`: one row each, never collapsed away).
   */
  function observeCommits(topic: string, ids: number[]) {
    const seen: { partition: number; offset: bigint; held: number }[] = [];
    const kafka = env.resources.kafka;
    const held = async (partition: number, offset: string) => {
      const rs = await ch.query({
        query: `SELECT uniqExact(kafka_offset) AS n FROM ${db()}.fitness_results
                 WHERE kafka_partition = ${uint(partition)} AND kafka_offset < ${uint(offset)} AND data_id IN ${list(ids, uint)}`,
        format: 'JSONEachRow',
      });
      return Number((await rs.json<{ n: string }>())[0]!.n);
    };
    const consumer: Kafka['consumer'] = (config) => {
      const c = kafka.consumer(config);
      return {
        ...c,
        async commitOffsets(offsets) {
          for (const o of offsets)
            if (o.topic === topic) seen.push({ partition: o.partition, offset: BigInt(o.offset), held: await held(o.partition, o.offset) });
          return c.commitOffsets(offsets);
        },
      };
    };
    return { seen, kafka: new Proxy(kafka, { get: (k, prop) => (prop === 'consumer' ? consumer : Reflect.get(k, prop)) }) };
  }
  async function bulkOffsets(ids: number[]): Promise<{ partition: number; offset: bigint }[]> {
    const rs = await ch.query({
      query: `SELECT DISTINCT kafka_partition AS p, toString(kafka_offset) AS o FROM ${db()}.fitness_results WHERE data_id IN ${list(ids, uint)}`,
      format: 'JSONEachRow',
    });
    return (await rs.json<{ p: number; o: string }>()).map((r) => ({ partition: Number(r.p), offset: BigInt(r.o) }));
  }

  it('keeps the latest version whatever the delivery order, collapses duplicates, drops tombstones, and commits only what ClickHouse holds', async () => {
    const t = env.resources.topics;
    const bulk = Array.from({ length: 300 }, (_, i) =>
      fitnessEvent({ ...campaign, dataId: 100 + i * 100, userId: i, result: '1.000', version: 1 }),
    );
    await produceEvents(producer, t.events.fitness, [
      fitnessEvent({ ...campaign, dataId: 900001, userId: 4, result: '2.310', version: 2 }),
      fitnessEvent({ ...campaign, dataId: 900001, userId: 4, result: '2.210', version: 1 }), // v1 after v2
      fitnessEvent({ ...campaign, dataId: 900001, userId: 4, result: '2.310', version: 2 }), // duplicate
      fitnessEvent({ ...campaign, dataId: 900101, userId: 5, result: '1.500', version: 1 }),
      fitnessEvent({ ...campaign, dataId: 900101, userId: 5, result: '1.500', version: 2, isDeleted: true }),
      ...bulk,
    ]);
    await produceEvents(producer, t.events.orders, [orderEvent({ orderId: '7b1c3c1e-0000-4000-8000-000000000001', total: '39.8000' })]);

    const registry = createRegistry(false);
    const bulkIds = bulk.map((e) => Number(e.aggregateId));
    const commits = observeCommits(t.events.fitness, bulkIds);
    const p = await start({ registry, kafka: commits.kafka });
    await waitFor(async () => (await caughtUp(p.groupId, t.events.fitness)) && caughtUp(p.groupId, t.events.orders), {
      timeoutMs: 30000,
      what: 'projector caught up',
    });
    // Every commit, not only the end state: at each one, ClickHouse already held every bulk row below
    // the committed offset of its partition (the bulk rows' offsets are read once all are in).
    const seen = [...commits.seen];
    const offsets = await bulkOffsets(bulkIds);
    const below = (partition: number, offset: bigint) => offsets.filter((o) => o.partition === partition && o.offset < offset).length;
    expect(offsets).toHaveLength(bulk.length);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((c) => c.held !== below(c.partition, c.offset))).toEqual([]);

    const state = await latest([900001, 900101, ...bulk.map((e) => Number(e.aggregateId))]);
    expect(state.get(900001)).toEqual({ result: '2.310', version: 2 });
    expect(state.has(900101)).toBe(false); // tombstoned
    expect(state.size).toBe(1 + bulk.length);
    const physical = await (
      await ch.query({ query: `SELECT count() AS n FROM ${db()}.fitness_results WHERE data_id = 900001`, format: 'JSONEachRow' })
    ).json<{ n: string }>();
    expect(Number(physical[0]!.n)).toBeGreaterThanOrEqual(1); // physical duplicates may exist; logical state is one row

    const order = await (
      await ch.query({ query: `SELECT toString(total) AS t, item_skus, currency FROM ${db()}.orders FINAL`, format: 'JSONEachRow' })
    ).json<{ t: string; item_skus: string[]; currency: string }>();
    expect(order).toEqual([{ t: expect.stringMatching(/^39\.8(000)?$/), item_skus: ['SKU-1'], currency: 'EUR' }]);

    // Batched: far fewer flushes than events (one insert per table per flush).
    const flushes = (await registry.getSingleMetric('tidemark_projector_flushes_total')!.get()).values.find(
      (v) => v.labels.outcome === 'ok',
    )!.value;
    expect(flushes).toBeLessThan(bulk.length / 10);
  });

  it('dead-letters undecodable events with a reason and a metric, skips a tombstone, and the partition moves on', async () => {
    const t = env.resources.topics;
    const registry = createRegistry(false);
    const p = await start({ registry, groupId: `${env.settings.kafkaTopicPrefix}.projector-dlq` });
    const key = 'same-partition';
    const wire = (e: ReturnType<typeof fitnessEvent>) => JSON.parse(toKafkaRecord(e).value) as Record<string, unknown>;
    const good = toKafkaRecord(fitnessEvent({ ...campaign, dataId: 700001, userId: 9, result: '3.000', version: 1 })).value;
    // A version no reader knows yet (fitness has versions 1 and 2: a version-2 envelope of version-1 data is INVALID_DATA).
    const future = { ...wire(fitnessEvent({ ...campaign, dataId: 700101, userId: 9, result: '3.100', version: 1 })), schemaVersion: 3 };
    const hostile = wire(fitnessEvent({ ...campaign, dataId: 700201, userId: 9, result: '1.000', version: 1 }));
    (hostile.data as Record<string, unknown>).result = "2.31'; DROP TABLE x; --";
    await producer.send({
      topic: t.events.fitness,
      acks: -1,
      messages: [
        { key, value: '{not json' },
        { key, value: JSON.stringify(future) },
        { key, value: JSON.stringify(hostile) },
        // An erasure's tombstone: skipped silently (no dead letter), the partition moves past it.
        { key, value: null },
        { key, value: good },
      ],
    });
    await waitFor(async () => (await latest([700001])).size === 1, { timeoutMs: 30000, what: 'the good event after the bad ones' });
    await waitFor(() => caughtUp(p.groupId, t.events.fitness), { timeoutMs: 30000, what: 'dlq projector caught up' });

    const dead = await readDeadLetters(t, p.groupId, 3); // the first test's projector dead-letters them too
    expect(dead.map((d) => d.reason).sort()).toEqual(['INVALID_DATA', 'MALFORMED_JSON', 'UNSUPPORTED_SCHEMA_VERSION']);
    expect(dead.find((d) => d.reason === 'MALFORMED_JSON')!.value).toBe('{not json'); // original bytes, replayable
    expect(dead.every((d) => d.topic === t.events.fitness)).toBe(true);
    const byReason = (await registry.getSingleMetric('tidemark_projector_dead_letters_total')!.get()).values;
    expect(byReason.filter((v) => v.labels.domain === 'fitness').reduce((n, v) => n + v.value, 0)).toBeGreaterThanOrEqual(3);
  });

  async function readDeadLetters(t: Topics, consumerGroup: string, n: number) {
    const consumer = env.resources.kafka.consumer({ groupId: `${env.settings.kafkaTopicPrefix}.dlq-reader` });
    const seen: { reason: string; topic: string; value: string }[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: t.deadLetter, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        if (String(message.headers![DEAD_LETTER_HEADERS.consumer]) !== consumerGroup) return;
        seen.push({
          reason: String(message.headers![DEAD_LETTER_HEADERS.reason]),
          topic: String(message.headers![DEAD_LETTER_HEADERS.topic]),
          value: message.value!.toString(),
        });
      },
    });
    try {
      await waitFor(() => seen.length >= n, { timeoutMs: 30000, what: 'dead letters' });
    } finally {
      await consumer.disconnect();
    }
    return seen;
  }

  itWithClickHouseServer('holds its partitions through a ClickHouse outage and resumes without loss', async () => {
    const topics = await ensureTopics(
      env.resources.kafka,
      {
        ...env.settings,
        kafkaTopicPrefix: `${env.settings.kafkaTopicPrefix}.outage`,
      },
      eventTopicSuffixes(),
    );
    const proxy = await startTcpProxy('127.0.0.1', Number(new URL(env.settings.clickhouseUrl).port || 8123));
    const viaProxy = fromClickHouse({ ...env.settings, clickhouseUrl: `http://127.0.0.1:${proxy.port}` }, { requestTimeoutMs: 5000 });
    const registry = createRegistry(false);
    try {
      const p = await start({ clickhouse: viaProxy, topics, registry, groupId: `${topics.events.fitness}.projector` });
      const first = Array.from({ length: 30 }, (_, i) =>
        fitnessEvent({ ...campaign, dataId: 500000 + i * 100, userId: i, result: '2.000', version: 1 }),
      );
      await produceEvents(producer, topics.events.fitness, first);
      await waitFor(() => caughtUp(p.groupId, topics.events.fitness), { timeoutMs: 30000, what: 'first events applied' });
      const before = await committed(p.groupId, topics.events.fitness);

      proxy.cut();
      const second = Array.from({ length: 60 }, (_, i) =>
        fitnessEvent({ ...campaign, dataId: 600000 + i * 100, userId: i, result: '2.500', version: 1 }),
      );
      await produceEvents(producer, topics.events.fitness, second);
      const paused = registry.getSingleMetric('tidemark_projector_paused')!;
      await waitFor(async () => (await paused.get()).values[0]?.value === 1, { timeoutMs: 30000, what: 'projector paused' });
      expect(await committed(p.groupId, topics.events.fitness)).toEqual(before); // nothing committed during the outage
      expect((await latest(second.map((e) => Number(e.aggregateId)))).size).toBe(0);

      proxy.restore();
      await waitFor(() => caughtUp(p.groupId, topics.events.fitness), { timeoutMs: 60000, what: 'caught up after the outage' });
      expect((await latest(second.map((e) => Number(e.aggregateId)))).size).toBe(second.length);
      expect((await paused.get()).values[0]?.value).toBe(0);
      await stop(p);
    } finally {
      await viaProxy.close();
      await proxy.close();
    }
  });

  it('loses nothing when members join and leave mid-stream (rebalance, restart)', async () => {
    const topics = await ensureTopics(
      env.resources.kafka,
      {
        ...env.settings,
        kafkaTopicPrefix: `${env.settings.kafkaTopicPrefix}.rebalance`,
      },
      eventTopicSuffixes(),
    );
    const groupId = `${topics.events.fitness}.projector`;
    const ids = Array.from({ length: 400 }, (_, i) => 300000 + i * 100 + (i % 2));
    const wave = (version: number) =>
      ids.map((dataId, i) =>
        fitnessEvent({ ...campaign, dataId, userId: i, result: `${version}.${String(i % 1000).padStart(3, '0')}`, version }),
      );
    await produceEvents(producer, topics.events.fitness, wave(1));
    const a = await start({ topics, groupId, batchSize: 40, flushIntervalMs: 10 });
    await waitFor(async () => (await checkpoints(groupId, topics.events.fitness)).size > 0, {
      timeoutMs: 30000,
      what: 'member A applying',
    });

    const b = await start({ topics, groupId, batchSize: 40, flushIntervalMs: 10 }); // rebalance while A is mid-stream
    await produceEvents(producer, topics.events.fitness, wave(2));
    await stop(a); // A leaves with batches possibly in flight
    await produceEvents(producer, topics.events.fitness, wave(3));
    await waitFor(() => caughtUp(groupId, topics.events.fitness), { timeoutMs: 60000, what: 'B caught up' });

    const state = await latest(ids);
    expect(state.size).toBe(ids.length);
    ids.forEach((id, i) => expect(state.get(id)).toEqual({ result: `3.${String(i % 1000).padStart(3, '0')}`, version: 3 }));
    await stop(b);
  });
});
