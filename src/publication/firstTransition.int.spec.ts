// Only the publication layer reports a publication's first state, exactly once per event, whatever
// the domain and whatever its strategy: one write through each domain's real service under each
// strategy, against the real stores and broker, yields exactly one `from: null` change for its event
// (outbox: NEW; kafka-first: PUBLISHED_DIRECT), stamped by the publisher's injected clock.
import { fitnessService } from '../domains/fitness/service';
import { createOrdersService } from '../domains/orders/ordersService';
import { alwaysClosedCircuit } from '../infra/kafka/kafkaCircuit';
import { createRegistry } from '../metrics/registry';
import { fixedClock, randomIds } from '../shared/clock';
import { silentLogger } from '../shared/logger';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';
import type { StateChange, StateChangeSink } from './stateChanges/stateChange';
import { outboxPublication, publicationFor, type DomainPublication } from '../app/wiring/publication';
import type { Strategy } from './publisher';
import { TEST_SERVICE } from '../../test/support/principals';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.cleanup();
});

describe.each<[Strategy]>([['outbox'], ['kafka-first']])('the first state of a publication under %s', (strategy) => {
  const emitted: StateChange[] = [];
  const sink: StateChangeSink = { emit: (c) => void emitted.push(...c), stop: async () => undefined };
  const clock = fixedClock('2026-12-01T10:00:00.000Z');
  let publication: DomainPublication;

  beforeAll(() => {
    publication =
      strategy === 'outbox'
        ? outboxPublication(env.resources, sink, clock)
        : publicationFor(strategy, {
            resources: env.resources,
            registry: createRegistry(false),
            logger: silentLogger,
            stateChanges: sink,
            kafkaCircuit: alwaysClosedCircuit,
          });
  });
  afterAll(() => publication.stop());

  const firstOf = (eventId: string) => emitted.filter((c) => c.eventId === eventId && c.from === null);

  it('is reported once for a fitness result', async () => {
    const fitness = fitnessService({
      shards: env.resources.mysql,
      publisher: publication.publisher,
      publicationStates: publication.states,
    });
    const w = await fitness.record(
      { detectId: 5150, userId: 1, projectId: 3, schoolId: 7, grade: 5, result: '2.21', unit: 'm' },
      TEST_SERVICE,
    );
    const first = firstOf(w.publication.eventId);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      domain: 'fitness',
      aggregateId: String(w.result.dataId),
      version: 1,
      to: strategy === 'outbox' ? 'NEW' : 'PUBLISHED_DIRECT',
    });
    if (strategy === 'outbox') expect(first[0]!.at).toEqual(clock.now());
  });

  it('is reported once for an order', async () => {
    const orders = createOrdersService({
      db: env.resources.pg,
      publisher: publication.publisher,
      clock,
      ids: randomIds,
      limits: { maxItems: 10 },
      publicationState: publication.stateOf,
    });
    const r = await orders.placeOrder(
      {
        customerId: 'c-first',
        currency: 'EUR',
        idempotencyKey: `first-${strategy}`,
        items: [{ sku: 'A', quantity: 1, unitPrice: '1.00' }],
      },
      TEST_SERVICE,
    );
    const eventId = `order-placed:${r.order.orderId}:v1`;
    const first = firstOf(eventId);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      domain: 'orders',
      aggregateId: r.order.orderId,
      version: 1,
      to: strategy === 'outbox' ? 'NEW' : 'PUBLISHED_DIRECT',
    });
  });
});
