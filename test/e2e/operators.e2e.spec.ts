// The operator's view on the real stack: a subscriber on gateway A sees, in order, the transitions
// of a fitness event whose relay runs in a separate OS process (and the projector applying it);
// publicationHealth and /metrics report an expired claim, a parked event, a dead letter and a
// lagging projection created for real in the stores; the views are operator-only.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync } from 'node:fs';
import { join } from 'node:path';
import { settingsToEnv, settingsTable } from '../../src/config/settings';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { waitFor } from '../../src/shared/lifecycle';
import {
  PublicationHealthDocument,
  PublicationStateChangedDocument,
  RecordFitnessResultDocument,
  ReplayParkedEventsDocument,
} from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { captureFd, testLogLevel } from '../support/logCapture';
import { seedOutbox } from '../support/outboxSeed';
import { subscribe } from '../support/subscriptionClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, tokenFor } from '../support/tokens';

function startRoleProcess(env: TestEnv, roles: string): ChildProcess {
  const ours = new Set(Object.values(settingsTable).map((d) => d.env));
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !ours.has(k)));
  // A child process never shares the test's embedded ClickHouse directory (locked to one process).
  const own = { clickhouseEmbeddedPath: `${env.settings.stackDir}/engines/ch-child-${roles}` };
  // Its log lines (stdout) go to the run's log capture if any, else nowhere.
  const logs = captureFd(`child-${roles}`);
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'main.ts'), '--roles', roles], {
    env: {
      ...base,
      ...settingsToEnv({ ...env.settings, ...own }),
      STACK_MANAGE: 'false',
      LOG_LEVEL: logs === undefined ? 'warn' : testLogLevel(),
      TIDEMARK_INSTANCE_ID: `child-${roles}`,
    },
    stdio: ['ignore', logs ?? 'ignore', 'inherit'],
  });
  if (logs !== undefined) closeSync(logs);
  return child;
}

async function metricValue(url: string, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const text = await (await fetch(url)).text();
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (want.every((w) => line.includes(w))) return Number(line.split(' ').pop());
  }
  return undefined;
}

describe('operators', () => {
  let env: TestEnv;
  let gateway: Tidemark;
  let relayProcess: ChildProcess | undefined;

  beforeAll(async () => {
    env = await createTestEnv({ outboxStatsIntervalMs: 200, kafkaFirstStatsIntervalMs: 200 });
    gateway = await startTidemark({ ...env.settings, roles: ['gateway', 'projector'], instanceId: 'gw-a' }, { migrate: false });
    await gateway.stateChangeHub!.ready;
  });
  afterAll(async () => {
    relayProcess?.kill('SIGTERM');
    await gateway?.stop();
    await env?.cleanup();
  });

  it('streams a fitness event from NEW to SENT (relay in another process) and PROJECTION_APPLIED', async () => {
    const sub = subscribe(
      gateway.gateway!.wsUrl,
      PublicationStateChangedDocument,
      { domain: 'fitness' },
      `Bearer ${await tokenFor(env.settings, 'operator')}`,
    );
    await waitFor(async () => (await gateway.registry.getSingleMetric('tidemark_subscriptions_active')!.get()).values[0]?.value === 1, {
      what: 'subscription',
    });
    const rec = await execute(
      gateway.gateway!.url,
      RecordFitnessResultDocument,
      { input: { detectId: 1, userId: 4, projectId: 3, schoolId: 7, grade: 5, result: '2.21', unit: 'm', idempotencyKey: 'ops-1' } },
      await authHeader(env.settings, 'service'),
    );
    const eventId = rec.data!.recordFitnessResult.publication!.eventId;
    relayProcess = startRoleProcess(env, 'relay');
    const seen = () => sub.events.map((e) => e.publicationStateChanged).filter((c) => c.eventId === eventId);
    await waitFor(() => seen().length >= 4, { what: 'the event to be sent and applied', timeoutMs: 60000 });
    // SENT comes from the relay's process, PROJECTION_APPLIED from the projector's: two producers, so
    // they may arrive in either order; each change says when it happened, which orders them.
    const byTime = [...seen()].sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
    expect(byTime.map((c) => c.to)).toEqual(['NEW', 'PROCESSING', 'SENT', 'PROJECTION_APPLIED']);
    expect(byTime[1]).toMatchObject({ from: 'NEW', domain: 'fitness', version: 1 });
    await sub.dispose();
  }, 90000);

  it('enforces role boundaries: an analyst cannot write, a client cannot replay, no token cannot do either', async () => {
    const input = { detectId: 2, userId: 9, projectId: 3, schoolId: 7, grade: 5, result: '1.50', unit: 'm', idempotencyKey: 'ops-roles' };
    const countRows = async () => {
      let n = 0;
      for (const sh of env.resources.mysql.shards)
        n += Number((await sh.db('fitness_results').where({ user_id: 9 }).count({ n: '*' }))[0]!.n);
      return n;
    };
    const asAnalyst = await execute(
      gateway.gateway!.url,
      RecordFitnessResultDocument,
      { input },
      await authHeader(env.settings, 'analyst'),
    );
    expect(asAnalyst.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    const anonymous = await execute(gateway.gateway!.url, RecordFitnessResultDocument, { input });
    expect(anonymous.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const forged = await execute(
      gateway.gateway!.url,
      RecordFitnessResultDocument,
      { input },
      { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4Iiwicm9sZXMiOlsib3BlcmF0b3IiXX0.bad-signature' },
    );
    expect(forged.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    expect(await countRows()).toBe(0);
    const replayAsClient = await execute(
      gateway.gateway!.url,
      ReplayParkedEventsDocument,
      { filter: { domain: 'fitness' } },
      await authHeader(env.settings, 'service'),
    );
    expect(replayAsClient.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect(JSON.stringify(replayAsClient)).not.toMatch(/eventId|aggregateId/);
  });

  it('reports expired claims, parked events, dead letters and projection lag in publicationHealth and /metrics', async () => {
    // Nothing may repair the conditions below while we look at them.
    if (relayProcess && relayProcess.exitCode === null) {
      const exited = new Promise((r) => relayProcess!.once('exit', r));
      relayProcess.kill('SIGTERM');
      await exited;
    }
    const shard0 = env.resources.mysql.shard(0).db;
    const [expired, parked] = await seedOutbox(shard0, env.resources.topics.events.fitness, 2, { firstSequence: 5000, shard: 0 });
    await shard0('outbox_events')
      .where({ event_id: expired!.eventId })
      .update({ status: 'PROCESSING', claim_token: 'gone', lease_expires_at: shard0.raw('NOW(3) - INTERVAL 1 MINUTE') });
    await shard0('outbox_events').where({ event_id: parked!.eventId }).update({ status: 'PARKED', attempts: 20 });
    await env.resources
      .pg('event_publications')
      .insert({
        event_id: 'order-placed:dead-1:v1',
        domain: 'orders',
        aggregate_id: 'dead-1',
        version: 1,
        topic: env.resources.topics.events.orders,
        message_key: 'dead-1',
        message_value: '{}',
        headers: '{}',
        status: 'DEAD_LETTER',
        source: 'DIRECT_FALLBACK',
        direct_attempts: 3,
        relay_attempts: 3,
        replay_count: 0,
        next_attempt_at: env.resources.pg.fn.now(),
      })
      .catch(async (e) => {
        throw new Error(`seed dead letter: ${(e as Error).message}`);
      });

    const operator = await authHeader(env.settings, 'operator');
    const health = await waitFor(
      async () => {
        const r = await execute(gateway.gateway!.url, PublicationHealthDocument, {}, operator);
        const fit = r.data?.publicationHealth.find((d) => d.domain === 'fitness')?.stores.find((s) => s.store === 'mysql-shard-0');
        return fit && fit.expiredClaims === 1 && fit.parked === 1 ? r.data!.publicationHealth : undefined;
      },
      { what: 'publicationHealth to show the conditions' },
    );
    const fitness = health.find((d) => d.domain === 'fitness')!;
    expect(fitness.stores.find((s) => s.store === 'mysql-shard-0')).toMatchObject({ pending: 1, parked: 1, expiredClaims: 1 });
    expect(fitness.stores.find((s) => s.store === 'mysql-shard-0')!.oldestUnsentAgeSeconds).toBeGreaterThanOrEqual(0);
    expect(fitness.projectionLagMs).toBeGreaterThan(0); // pending events in scope: the read model lags
    expect(fitness).toMatchObject({ unresolvedDiscrepancies: 0, repairsAwaitingVerification: 0 });
    expect(health.find((d) => d.domain === 'orders')!.stores.find((s) => s.store === 'postgres')).toMatchObject({ deadLettered: 1 });

    const forbidden = await execute(gateway.gateway!.url, PublicationHealthDocument, {}, await authHeader(env.settings, 'service'));
    expect(forbidden.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect(forbidden.data).toBeNull();

    // /metrics: the gateway's view computed from persisted state; the relay-side gauges come from a relay.
    const metrics = gateway.gateway!.url.replace(/\/graphql$/, '/metrics');
    expect(await metricValue(metrics, 'tidemark_projection_lag_seconds', { domain: 'fitness' })).toBeGreaterThan(0);
    expect(await metricValue(metrics, 'tidemark_projection_pending_publications', { domain: 'fitness' })).toBe(2);
    const relay = await startTidemark(
      { ...env.settings, roles: ['relay'], relayPollIntervalMs: 60000, relayLeaseMs: 600000, relayPublishTimeoutMs: 1000 },
      { migrate: false },
    );
    try {
      const text = async () => relay.registry.metrics();
      // The outbox and kafka-first gauges are refreshed by two independent loops: wait for both.
      const deadLetterGauge = /tidemark_kafka_first_dead_letter_rows\{[^}]*store="postgres"[^}]*\} 1/;
      await waitFor(
        async () => {
          const t = await text();
          return t.includes('tidemark_outbox_events{store="mysql",shard="0",status="PARKED"} 1') && deadLetterGauge.test(t);
        },
        { what: 'relay gauges' },
      );
      const t = await text();
      expect(t).toContain('tidemark_outbox_events{store="mysql",shard="0",status="PARKED"} 1');
      expect(t).toMatch(/tidemark_kafka_first_dead_letter_rows\{[^}]*store="postgres"[^}]*\} 1/);
    } finally {
      await relay.stop();
    }
  }, 90000);
});
