// The publication strategy is configuration, per domain: with the defaults swapped
// (FITNESS_PUBLICATION_STRATEGY=kafka-first, ORDERS_PUBLICATION_STRATEGY=outbox) the same GraphQL
// mutations publish through the other strategy, and both events still reach Kafka.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { waitFor } from '../../src/shared/lifecycle';
import { PlaceOrderDocument, RecordFitnessResultDocument } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { readTopic } from '../support/readTopic';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

describe('publication strategy chosen per domain', () => {
  let env: TestEnv;
  let app: Tidemark;

  beforeAll(async () => {
    env = await createTestEnv({ fitnessStrategy: 'kafka-first', ordersStrategy: 'outbox' });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay'] }, { migrate: false });
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  it('publishes fitness results directly and orders through the outbox when configured so', async () => {
    const client = await authHeader(env.settings, 'service');
    const fit = await execute(
      app.gateway!.url,
      RecordFitnessResultDocument,
      { input: { detectId: 10001, userId: 4, projectId: 3, schoolId: 7, grade: 5, result: '2.21', unit: 'm', idempotencyKey: 'swap-1' } },
      client,
    );
    expect(fit.errors).toBeUndefined();
    expect(fit.data!.recordFitnessResult.publication).toMatchObject({ state: 'PUBLISHED_DIRECT' });

    const order = await execute(
      app.gateway!.url,
      PlaceOrderDocument,
      { input: { customerId: 'c-1', currency: 'EUR', idempotencyKey: 'swap-2', items: [{ sku: 'A', quantity: 1, unitPrice: '5' }] } },
      client,
    );
    expect(order.errors).toBeUndefined();
    expect(order.data!.placeOrder).toMatchObject({ outcome: 'OUTBOX_STORED', publication: { state: 'NEW' } });
    const orderId = order.data!.placeOrder.order.orderId;

    // The fitness event went straight to Kafka; the order's outbox row is relayed from PostgreSQL.
    const dataId = String(fit.data!.recordFitnessResult.result.dataId);
    await readTopic(env.resources.kafka, env.resources.topics.events.fitness, (m) => m.some((x) => x.key === dataId));
    await readTopic(env.resources.kafka, env.resources.topics.events.orders, (m) => m.some((x) => x.key === orderId));
    await waitFor(
      async () => (await env.resources.pg('outbox_events').where({ aggregate_id: orderId }).first('status'))?.status === 'SENT',
      { what: 'outbox row SENT' },
    );
    // Kafka-first writes no publication row on the normal path; the outbox strategy writes one.
    expect(
      await env.resources.mysql
        .shard(Number(dataId) % 100)
        .db('event_publications')
        .count({ n: '*' }),
    ).toEqual([{ n: 0 }]);
  });
});
