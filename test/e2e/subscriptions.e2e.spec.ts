// Live publication-state changes over graphql-ws: a change reported by one process reaches a
// subscriber connected to another gateway instance (cross-instance fan-out through Kafka); filters
// apply; only operators may subscribe; a subscriber that stops reading is disconnected (4008) and
// leaves nothing behind.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { SLOW_SUBSCRIBER_CLOSE_CODE } from '../../src/publication/stateChanges/stateChangeHub';
import type { StateChange } from '../../src/publication/stateChanges/stateChange';
import { waitFor } from '../../src/shared/lifecycle';
import { PublicationStateChangedDocument } from '../generated/graphql';
import { subscribe } from '../support/subscriptionClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { tokenFor } from '../support/tokens';

const change = (
  eventId: string,
  to: StateChange['to'],
  from: StateChange['from'] = null,
  domain: StateChange['domain'] = 'fitness',
): StateChange => ({
  eventId,
  domain,
  aggregateId: eventId.split('-')[2] ?? 'x',
  version: 1,
  from,
  to,
  attempt: 0,
  at: new Date(),
});

describe('publication-state subscriptions', () => {
  let env: TestEnv;
  let gatewayA: Tidemark;
  let workerB: Tidemark;
  let operator: string;

  beforeAll(async () => {
    env = await createTestEnv();
    gatewayA = await startTidemark({ ...env.settings, roles: ['gateway'], instanceId: 'gw-a' }, { migrate: false });
    // A second process-like instance with no gateway: it only reports transitions (as a relay would).
    workerB = await startTidemark({ ...env.settings, roles: ['relay'], instanceId: 'relay-b' }, { migrate: false });
    await gatewayA.stateChangeHub!.ready;
    operator = `Bearer ${await tokenFor(env.settings, 'operator')}`;
  }, 60000);
  afterAll(async () => {
    await gatewayA?.stop();
    await workerB?.stop();
    await env.cleanup();
  });

  it('delivers, in order, the transitions reported by another instance, filtered', async () => {
    const sub = subscribe(gatewayA.gateway!.wsUrl, PublicationStateChangedDocument, { domain: 'fitness', aggregateId: '900001' }, operator);
    await waitFor(
      () =>
        gatewayA.registry
          .getSingleMetric('tidemark_subscriptions_active')!
          .get()
          .then((m) => m.values[0]?.value === 1),
      { what: 'subscription to register' },
    );
    workerB.stateChanges.emit([
      change('fitness-result-900001-v1', 'NEW'),
      change('fitness-result-777777-v1', 'NEW'), // other aggregate: filtered out
      change('order-placed-x', 'PUBLISHED_DIRECT', null, 'orders'), // other domain: filtered out
      change('fitness-result-900001-v1', 'PROCESSING', 'NEW'),
      change('fitness-result-900001-v1', 'SENT', 'PROCESSING'),
    ]);
    await waitFor(() => sub.events.length >= 3, { what: 'three transitions', timeoutMs: 20000 });
    expect(sub.events.map((e) => [e.publicationStateChanged.from, e.publicationStateChanged.to])).toEqual([
      [null, 'NEW'],
      ['NEW', 'PROCESSING'],
      ['PROCESSING', 'SENT'],
    ]);
    expect(sub.events[0]!.publicationStateChanged).toMatchObject({
      eventId: 'fitness-result-900001-v1',
      domain: 'fitness',
      aggregateId: '900001',
      version: 1,
    });
    await sub.dispose();
  });

  it('refuses a connection without a token and a subscription with a client token', async () => {
    const anonymous = subscribe(gatewayA.gateway!.wsUrl, PublicationStateChangedDocument, {}, undefined);
    await waitFor(() => anonymous.closeCode !== undefined, { what: 'anonymous connection to close' });
    expect(anonymous.closeCode).toBe(4403);

    const client = subscribe(
      gatewayA.gateway!.wsUrl,
      PublicationStateChangedDocument,
      {},
      `Bearer ${await tokenFor(env.settings, 'service')}`,
    );
    await waitFor(() => client.errors.length > 0, { what: 'FORBIDDEN' });
    expect(JSON.stringify(client.errors)).toContain('FORBIDDEN');
    expect(client.events).toEqual([]);
    await client.dispose();
  });

  it('disconnects a subscriber that stops reading, and keeps nothing for it', async () => {
    const slow = await startTidemark(
      { ...env.settings, roles: ['gateway'], instanceId: 'gw-slow', subscriptionMaxBufferedBytes: 64 * 1024 },
      { migrate: false },
    );
    try {
      const sub = subscribe(slow.gateway!.wsUrl, PublicationStateChangedDocument, {}, operator);
      const active = () =>
        slow.registry
          .getSingleMetric('tidemark_subscriptions_active')!
          .get()
          .then((m) => m.values[0]?.value);
      await waitFor(async () => (await active()) === 1, { what: 'subscription to register' });
      // Stop reading: the client's socket is paused (TCP backpressure, as a stalled browser causes).
      await waitFor(() => sub.socket, { what: 'connection' });
      sub.socket!.pause();
      const big = 'x'.repeat(2000);
      for (let i = 0; i < 40 && (await active()) === 1; i++) {
        slow.stateChangeHub!.dispatch(
          Array.from({ length: 500 }, (_, j) => ({ ...change(`fitness-result-${i}${j}-v1`, 'NEW'), aggregateId: `${big}${j}` })),
        );
        await new Promise((r) => setImmediate(r));
      }
      sub.socket!.resume();
      await waitFor(() => sub.closeCode !== undefined, { what: 'slow subscriber to be closed', timeoutMs: 20000 });
      expect(sub.closeCode).toBe(SLOW_SUBSCRIBER_CLOSE_CODE);
      expect(await active()).toBe(0);
      await sub.dispose();
    } finally {
      await slow.stop();
    }
  }, 60000);
});
