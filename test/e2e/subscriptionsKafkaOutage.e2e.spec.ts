// An operator subscribed to the gateway sees an order placed while Kafka is down go NOT_PUBLISHED,
// then PUBLISHED once the broker is back and the relay has sent it. Kafka really stops: the suite
// runs its own private broker (the fault suite's engines, on other ports), never the shared one.
import { migrateAll } from '../../src/app/migrateAll';
import { openResources, type Resources } from '../../src/app/resources';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { waitFor } from '../../src/shared/lifecycle';
import { PlaceOrderDocument, PublicationStateChangedDocument } from '../generated/graphql';
import { startPrivateEngines, type PrivateEngines } from '../faults/support/privateEngines';
import { execute } from '../support/graphqlClient';
import { subscribe } from '../support/subscriptionClient';
import { createDatabases, dropDatabases, testSettings, uniqueSuffix } from '../support/testEnv';
import { authHeader, tokenFor } from '../support/tokens';
import type { Settings } from '../../src/config/settings';

describe('subscriptions across a Kafka outage', () => {
  let engines: PrivateEngines;
  let settings: Settings;
  let resources: Resources;
  let app: Tidemark;

  beforeAll(async () => {
    // The production attempt limits and backoff: an outage is not the record's failure, so however
    // slowly the broker restarts, the row waits for it instead of being dead-lettered.
    const started = await startPrivateEngines(testSettings({ kafkaFirstRelayPollIntervalMs: 200 }), uniqueSuffix(), () => undefined);
    engines = started.engines;
    settings = started.settings;
    await createDatabases(settings);
    resources = openResources(settings);
    await migrateAll(resources);
    app = await startTidemark({ ...settings, roles: ['gateway', 'relay'] }, { migrate: false });
    await app.stateChangeHub!.ready;
  }, 180000);
  afterAll(async () => {
    await app?.stop();
    await resources?.close();
    if (settings) await dropDatabases(settings);
    await engines?.destroy();
  }, 120000);

  it('pushes NOT_PUBLISHED while Kafka is down, then PUBLISHED after recovery, in order', async () => {
    const sub = subscribe(
      app.gateway!.wsUrl,
      PublicationStateChangedDocument,
      { domain: 'orders' },
      `Bearer ${await tokenFor(settings, 'operator')}`,
    );
    await waitFor(async () => (await app.registry.getSingleMetric('tidemark_subscriptions_active')!.get()).values[0]?.value === 1, {
      what: 'subscription',
    });

    await engines.stop('kafka', 'graceful');
    const placed = await execute(
      app.gateway!.url,
      PlaceOrderDocument,
      {
        input: {
          customerId: 'c-outage',
          currency: 'EUR',
          idempotencyKey: 'outage-1',
          items: [{ sku: 'A', quantity: 1, unitPrice: '3.50' }],
        },
      },
      await authHeader(settings, 'service'),
    );
    expect(placed.errors).toBeUndefined();
    expect(placed.data!.placeOrder).toMatchObject({ outcome: 'FALLBACK_STORED', publication: { state: 'NOT_PUBLISHED' } });
    const eventId = placed.data!.placeOrder.publication!.eventId;

    await engines.start('kafka');
    await waitFor(
      () => sub.events.some((e) => e.publicationStateChanged.eventId === eventId && e.publicationStateChanged.to === 'PUBLISHED'),
      { what: 'PUBLISHED after recovery', timeoutMs: 120000, intervalMs: 250 },
    );
    const states = sub.events
      .map((e) => e.publicationStateChanged)
      .filter((c) => c.eventId === eventId)
      .map((c) => c.to);
    expect(states[0]).toBe('NOT_PUBLISHED');
    expect(states[states.length - 1]).toBe('PUBLISHED');
    expect(states).not.toContain('DEAD_LETTER');
    expect(await resources.pg('event_publications').where({ event_id: eventId }).first('status')).toEqual({ status: 'PUBLISHED' });
    await sub.dispose();
  }, 240000);
});
