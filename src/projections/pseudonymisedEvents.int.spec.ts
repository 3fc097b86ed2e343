// The projector and a pseudonymising erasure (a customer's orders, docs/erasure.md) on the real engines:
// the Kafka store's replacement record of an order (same key, event id and version, the customer replaced
// by the pseudonym, header tidemark-pseudonymised) is applied like a redelivery of the version the
// projection holds (ReplacingMergeTree(version): equal versions, the last insert wins on merge), never
// refused or dead-lettered; and with the guard row written (erased_aggregates with the pseudonym) an
// old record of the order still in flight is written WITH the pseudonym, not the customer.
import type { Producer } from 'kafkajs';
import { pseudonymOf } from '../domains/contract/erasure';
import { ordersModule } from '../domains/orders/module';
import { fromKafkaProducer } from '../infra/kafka/producer';
import { ident, str } from '../infra/clickhouse/literal';
import { toKafkaRecord } from '../publication/event';
import { systemClock } from '../shared/clock';
import { waitFor } from '../shared/lifecycle';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';
import { orderEvent } from '../../test/support/projectionEvents';
import { testProjectorOptions } from '../../test/support/projectorOptions';
import { erasedAggregatesCache } from './erased/erasedAggregatesCache';
import { insertErased } from './erased/insertErased';
import { startProjector } from './projector';
import type { Projector } from './projectorOptions';

const A = 'customer-proj-a';

describe('projector with a pseudonymised customer', () => {
  let env: TestEnv;
  let producer: Producer;
  let projector: Projector | undefined;
  const hadErasure = ordersModule.erasure !== undefined;

  beforeAll(async () => {
    env = await createTestEnv();
    if (!hadErasure)
      Object.assign(ordersModule, {
        erasure: { subject: 'customer', mode: 'pseudonymise', subjectField: 'customerId', source: () => undefined },
      });
    producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
  });
  afterAll(async () => {
    await projector?.stop();
    await producer?.disconnect();
    if (!hadErasure) delete (ordersModule as { erasure?: unknown }).erasure;
    await env?.cleanup();
  });

  const rows = async (orderId: string) => {
    const rs = await env.resources.clickhouse.query({
      query:
        `SELECT customer_id AS c, version AS v FROM ${ident(env.settings.clickhouseDatabase)}.orders ` +
        `WHERE order_id = ${str(orderId)} ORDER BY v`,
      format: 'JSONEachRow',
    });
    return (await rs.json<{ c: string; v: string | number }>()).map((r) => `${r.c}@${Number(r.v)}`);
  };
  const deadLetters = async () => {
    const rs = await env.resources.clickhouse.query({
      query: `SELECT count() AS n FROM ${ident(env.settings.clickhouseDatabase)}.projector_dead_letters WHERE domain = 'orders'`,
      format: 'JSONEachRow',
    });
    return Number((await rs.json<{ n: string }>())[0]!.n);
  };

  it('applies the replacement record of an applied version, and rewrites an old record after the guard', async () => {
    const topic = env.resources.topics.events.orders;
    const pseudonym = pseudonymOf({ subjectHash: 'c'.repeat(64) });
    const cache = erasedAggregatesCache({
      ch: env.resources.clickhouse,
      database: env.settings.clickhouseDatabase,
      clock: systemClock,
      refreshMs: 100,
    });
    projector = await startProjector(testProjectorOptions(env, { erased: cache }));

    const original = orderEvent({ orderId: 'pp-1', customerId: A });
    await producer.send({ topic, acks: -1, messages: [toKafkaRecord(original)] });
    await waitFor(async () => (await rows('pp-1')).includes(`${A}@1`), { timeoutMs: 60000, what: 'the order projected' });

    // The Kafka store's replacement: the same event, re-identified.
    const replaced = { ...original, data: { ...original.data, customerId: pseudonym } };
    const record = toKafkaRecord(replaced);
    await producer.send({
      topic,
      acks: -1,
      messages: [{ ...record, headers: { ...record.headers, 'tidemark-pseudonymised': 'er-proj-1' } }],
    });
    await waitFor(async () => (await rows('pp-1')).includes(`${pseudonym}@1`), { timeoutMs: 60000, what: 'the replacement projected' });

    // The guard row with the pseudonym: an old record of the order in flight is written with it.
    await insertErased(env.resources.clickhouse, env.settings.clickhouseDatabase, {
      domain: 'orders',
      aggregateIds: ['pp-1'],
      erasureId: 'er-proj-1',
      at: new Date(),
      pseudonym,
    });
    await cache.refresh();
    await producer.send({ topic, acks: -1, messages: [toKafkaRecord({ ...original, version: 2, eventId: 'order:pp-1:v2' })] });
    await waitFor(async () => (await rows('pp-1')).includes(`${pseudonym}@2`), { timeoutMs: 60000, what: 'the late record projected' });
    expect((await rows('pp-1')).filter((r) => r === `${A}@2`)).toEqual([]);
    expect(await deadLetters()).toBe(0);
  });
});
