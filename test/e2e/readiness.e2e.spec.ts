// Readiness that matches what a process can do, and operations endpoints on every process. With Kafka
// unreachable (a closed port), a gateway stays ready but degraded (it can still write and read) and
// says so on /readyz, in `health` and in tidemark_dependency_up; a relay-only process is not ready;
// relay-only and projector-only processes answer /metrics, /healthz and /readyz on OPS_PORT; and from
// the moment stop() starts (SIGTERM in main.ts) a process answers 503 "draining" while it drains.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { waitFor } from '../../src/shared/lifecycle';
import { HealthDocument } from '../generated/graphql';
import { metricValues, readyz } from '../faults/support/opsProbe';
import { execute } from '../support/graphqlClient';
import { CLOSED_PORT_BROKER, startBlackhole } from '../support/kafkaProbe';
import { seedOutbox } from '../support/outboxSeed';
import { authHeader } from '../support/tokens';
import { createTestEnv, type TestEnv } from '../support/testEnv';

describe('readiness and operations endpoints', () => {
  let env: TestEnv;
  // Each test stops what it started, so no process of an earlier test claims this test's rows.
  let apps: Tidemark[] = [];
  const start = async (...args: Parameters<typeof startTidemark>) => {
    const app = await startTidemark(...args);
    apps.push(app);
    return app;
  };
  afterEach(async () => {
    for (const a of apps) await a.stop().catch(() => undefined);
    apps = [];
  });

  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  it('keeps a gateway ready but degraded while Kafka is unreachable, and says which dependency is down', async () => {
    const app = await start({ ...env.settings, roles: ['gateway'], kafkaBrokers: [CLOSED_PORT_BROKER] }, { migrate: false });
    const base = app.gateway!.url.replace(/\/graphql$/, '');
    for (const url of [base, app.ops.url]) {
      const r = await readyz(url);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        status: 'degraded',
        failing: [],
        degraded: ['kafka'],
        stores: { mysql: true, postgres: true, clickhouse: true, kafka: false },
      });
    }
    const health = await execute(app.gateway!.url, HealthDocument, undefined, await authHeader(env.settings, 'operator'));
    expect(health.data!.health).toMatchObject({ ready: true, status: 'degraded', degraded: ['kafka'], failing: [] });
    const up = Object.fromEntries(
      (await metricValues(app.ops.url, 'tidemark_dependency_up')).map((m) => [/dependency="(\w+)"/.exec(m.labels)![1], m.value]),
    );
    expect(up).toEqual({ mysql: 1, postgres: 1, kafka: 0, clickhouse: 1 });
  });

  it('does not call a relay ready without Kafka; relay-only and projector-only processes serve the operations endpoints', async () => {
    const relay = await start({ ...env.settings, roles: ['relay'], kafkaBrokers: [CLOSED_PORT_BROKER] }, { migrate: false });
    const r = await readyz(relay.ops.url);
    expect(r).toMatchObject({ status: 503, body: { status: 'not-ready', failing: ['kafka'], degraded: [] } });
    expect((await fetch(`${relay.ops.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${relay.ops.url}/metrics`)).text()).toContain('tidemark_kafka_circuit_open');

    const projector = await start({ ...env.settings, roles: ['projector'] }, { migrate: false });
    expect(await readyz(projector.ops.url)).toMatchObject({ status: 200, body: { status: 'ready', failing: [], degraded: [] } });
    expect((await fetch(`${projector.ops.url}/healthz`)).status).toBe(200);
    await waitFor(async () => (await (await fetch(`${projector.ops.url}/metrics`)).text()).includes('tidemark_projector_'), {
      what: 'projector metrics',
    });
  });

  it('answers 503 "draining" from the moment stop() starts, while the batch in flight finishes', async () => {
    // A hung broker: the relay's publish waits for its timeout, so the drain takes that long.
    const hole = await startBlackhole();
    try {
      await seedOutbox(env.resources.mysql.shard(0).db, env.resources.topics.events.fitness, 1);
      const relay = await start(
        {
          ...env.settings,
          roles: ['relay'],
          kafkaBrokers: [hole.broker],
          relayPublishTimeoutMs: 3000,
          relayLeaseMs: 10000,
          relayPollIntervalMs: 20,
        },
        { migrate: false },
      );
      await waitFor(
        async () => (await env.resources.mysql.shard(0).db('outbox_events').where({ status: 'PROCESSING' }).first()) !== undefined,
        { what: 'a claim in flight' },
      );
      const stopping = relay.stop();
      const r = await readyz(relay.ops.url);
      expect(r).toMatchObject({ status: 503, body: { status: 'draining' } });
      await stopping;
      // The in-flight row was completed (released after its publish timed out), not left claimed.
      expect(await env.resources.mysql.shard(0).db('outbox_events').first('status', 'attempts')).toEqual({ status: 'FAILED', attempts: 0 });
    } finally {
      await hole.close();
    }
  });
});
