// Every row of the seed's failure table, with real processes, engines and broker failures: the
// event is delivered (possibly twice, never zero times) with its original eventId and version.
//   | Failure point                                  | Recovery behaviour                         |
//   | Before publication (relay killed after claim)  | Reclaim the expired task and publish it    |
//   | Broker accepts, the response is lost           | Retry because delivery is uncertain        |
//   | Publication succeeds, marking SENT fails        | Publish again after recovery               |
//   | Kafka outage                                   | FAILED with backoff, delivered afterwards  |
// (An outage or a lost acknowledgement spends no attempt: the rows go back FAILED with their count
// unchanged, and the relay waits on its circuit instead of retrying row by row.)
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Kafka } from 'kafkajs';
import { fromKafka } from '../../infra/kafka/fromKafka';
import { fromKafkaClusterProbe } from '../../infra/kafka/clusterProbe';
import { kafkaCircuit } from '../../infra/kafka/kafkaCircuit';
import { shardKnex } from '../../infra/mysql/fromMysql';
import type { DomainEvent } from '../../publication/event';
import type { PublicationStore } from '../../publication/stores';
import { waitFor } from '../../shared/lifecycle';
import { silentLogger } from '../../shared/logger';
import { exponentialBackoff } from '../../shared/backoff';
import { mysqlStore, tableOf, testRelayDeps } from '../../../test/support/relayHarness';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { readTopic } from '../../../test/support/readTopic';
import { seedOutbox } from '../../../test/support/outboxSeed';
import { fromKafkaSink, type EventSink } from '../kafkaSink';
import { publishTimeout } from '../../shared/timeout';
import type { RelayDeps } from '../relayDeps';
import { relayOnce } from '../relayEngine';
import { startRelayLoop } from '../relayLoop';

jest.setTimeout(60000);

describe('the seed failure table: nothing committed is lost', () => {
  let env: TestEnv;
  let topic: string;
  let good: EventSink;
  let store: PublicationStore;

  beforeAll(async () => {
    env = await createTestEnv();
    topic = env.resources.topics.events.fitness;
    good = fromKafkaSink(env.resources.kafka, { timeoutMs: 5000 });
    store = mysqlStore(env);
  });
  afterAll(async () => {
    await good?.close();
    await env?.cleanup();
  });
  beforeEach(async () => {
    await store.db('outbox_events').delete();
  });

  const options = (over: Partial<RelayDeps> = {}): RelayDeps =>
    testRelayDeps(store, good, {
      policy: exponentialBackoff({ baseMs: 50, maxMs: 200, maxAttempts: 10 }),
      leaseMs: 1500,
      publishTimeoutMs: 1000,
      owner: 'survivor',
      ...over,
    });
  const once = (over: Partial<RelayDeps> = {}, s = store) => relayOnce(tableOf(s), options(over));
  const rows = async () =>
    (await store.db('outbox_events').select('event_id', 'status', 'attempts', 'claimed_by', 'last_error_code').orderBy('id')) as {
      event_id: string;
      status: string;
      attempts: number;
      claimed_by: string | null;
      last_error_code: string | null;
    }[];
  const topicEnd = async (kafka: Kafka) => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      return (await admin.fetchTopicOffsets(topic)).reduce((s, p) => s + Number(p.high), 0);
    } finally {
      await admin.disconnect();
    }
  };
  /** Every event reached Kafka `times` times (at least), always with its original version and key. */
  const deliveredTimes = async (events: DomainEvent[], times: number) => {
    const ids = new Set(events.map((e) => e.eventId));
    const msgs = (
      await readTopic(env.resources.kafka, topic, (m) => m.filter((x) => ids.has(x.envelope.eventId)).length >= events.length * times)
    ).filter((x) => ids.has(x.envelope.eventId));
    for (const e of events) {
      const copies = msgs.filter((m) => m.envelope.eventId === e.eventId);
      expect(copies.length).toBeGreaterThanOrEqual(times);
      for (const c of copies) expect(c).toMatchObject({ key: e.aggregateId, envelope: { version: e.version, aggregateId: e.aggregateId } });
      expect(new Set(copies.map((c) => c.partition)).size).toBe(1);
    }
  };
  const crashRelay = (crashAt: 'claimed' | 'published') =>
    new Promise<NodeJS.Signals | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', '..', 'test', 'support', 'crashingRelay.ts')], {
        env: { ...process.env, TIDEMARK_TEST_SETTINGS: JSON.stringify(env.settings), CRASH_AT: crashAt, LEASE_MS: '1500' },
        stdio: 'ignore',
      });
      child.once('error', reject);
      child.once('exit', (_code, signal) => resolve(signal));
    });
  const drainWithSurvivor = async () => {
    const relay = startRelayLoop(tableOf(store), options());
    try {
      await waitFor(async () => (await rows()).every((r) => r.status === 'SENT'), { what: 'every row SENT', timeoutMs: 20000 });
    } finally {
      await relay.stop();
    }
  };

  it('before publication: a relay killed after claiming leaves its rows to lease expiry; they are reclaimed and published', async () => {
    const events = await seedOutbox(store.db, topic, 5);
    const before = await topicEnd(env.resources.kafka);
    expect(await crashRelay('claimed')).toBe('SIGKILL');
    expect((await rows()).every((r) => r.status === 'PROCESSING' && r.claimed_by === 'crashing-relay')).toBe(true);
    expect(await topicEnd(env.resources.kafka)).toBe(before); // nothing was published
    await drainWithSurvivor();
    expect((await rows()).every((r) => r.claimed_by === 'survivor' && r.attempts === 2)).toBe(true);
    await deliveredTimes(events, 1);
  });

  it('broker accepts but the response is lost: the row is retried because delivery is uncertain', async () => {
    const events = await seedOutbox(store.db, topic, 3);
    const lossy: EventSink = {
      async publish(batch) {
        await good.publish(batch); // the broker really has it...
        // ...but we never heard back
        return { sent: [], failed: batch.map((e) => ({ id: e.id, error: publishTimeout(1000), kind: 'outage' as const })) };
      },
      close: async () => undefined,
    };
    expect(await once({ sink: lossy })).toMatchObject({ claimed: 3, released: 3, sent: 0, outage: true });
    expect((await rows()).map((r) => [r.status, r.last_error_code])).toEqual(Array(3).fill(['FAILED', 'PUBLISH_TIMEOUT']));
    await drainWithSurvivor();
    await deliveredTimes(events, 2);
  });

  it('publication succeeds but marking SENT fails (relay killed): the rows are published again after recovery', async () => {
    const events = await seedOutbox(store.db, topic, 4);
    const before = await topicEnd(env.resources.kafka);
    expect(await crashRelay('published')).toBe('SIGKILL');
    expect((await rows()).every((r) => r.status === 'PROCESSING')).toBe(true);
    expect(await topicEnd(env.resources.kafka)).toBe(before + 4); // the broker has them
    await drainWithSurvivor();
    await deliveredTimes(events, 2);
  });

  it('publication succeeds but marking SENT fails (database connection lost): published again after recovery', async () => {
    const events = await seedOutbox(store.db, topic, 2);
    const own = shardKnex(env.settings, 0, 2);
    await expect(
      once({ onStage: async (stage) => void (stage === 'published' && (await own.destroy())) }, { ...store, db: own }),
    ).rejects.toThrow(/Unable to acquire a connection|aborted|closed/);
    expect((await rows()).every((r) => r.status === 'PROCESSING')).toBe(true);
    await drainWithSurvivor();
    await deliveredTimes(events, 2);
  });

  it('Kafka outage: rows go FAILED without spending attempts, the relay waits on its circuit, and all are delivered once the broker is back', async () => {
    const events = await seedOutbox(store.db, topic, 20);
    const downSettings = { ...env.settings, kafkaBrokers: ['127.0.0.1:1'] };
    const down = fromKafkaSink(fromKafka(downSettings), { timeoutMs: 300 });
    const circuit = kafkaCircuit({
      probe: fromKafkaClusterProbe(downSettings, [topic], 300),
      backoff: exponentialBackoff({ baseMs: 50, maxMs: 200, maxAttempts: Infinity }),
      logger: silentLogger,
    });
    const outage = startRelayLoop(tableOf(store), options({ sink: down, publishTimeoutMs: 300, circuit }));
    try {
      await waitFor(async () => circuit.state === 'open' && (await rows()).every((r) => r.status === 'FAILED'), {
        what: 'the outage to be noticed',
      });
      expect((await rows()).map((r) => r.attempts)).toEqual(Array(20).fill(0));
    } finally {
      await outage.stop();
      await circuit.stop();
      await down.close();
    }
    expect((await rows()).every((r) => r.status === 'FAILED' && r.attempts === 0)).toBe(true);
    await drainWithSurvivor();
    await deliveredTimes(events, 1);
  });
});
