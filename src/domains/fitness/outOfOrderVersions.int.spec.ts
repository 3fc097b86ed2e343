// Out-of-order versions: version 1 of a result fails to publish and is retried after version 2 went
// out, so Kafka holds v2 before v1 in the result's partition. Downstream (the projector into
// ClickHouse ReplacingMergeTree(version)) the higher version stays authoritative.
import { startProjectorRole } from '../../projections/projectorRole';
import { ident, uint } from '../../infra/clickhouse/literal';
import { fromKafka } from '../../infra/kafka/fromKafka';
import { createRegistry } from '../../metrics/registry';
import { discardStateChanges } from '../../publication/stateChanges/stateChange';
import { exponentialBackoff } from '../../relay/backoff';
import { fromKafkaSink } from '../../relay/outbox/kafkaSink';
import { outboxMetrics } from '../../relay/outbox/metrics';
import { relayOnce, type OutboxRelayOptions } from '../../relay/outbox/relay';
import type { Stoppable } from '../../shared/lifecycle';
import { waitFor } from '../../shared/lifecycle';
import { silentLogger } from '../../shared/logger';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { readTopic } from '../../../test/support/readTopic';
import { fitnessService } from './service';
import { fitnessOutboxPublisher } from './wiring';

jest.setTimeout(60000);

describe('out-of-order versions in Kafka', () => {
  let env: TestEnv;
  let projector: Stoppable | undefined;

  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await projector?.stop();
    await env?.cleanup();
  });

  it('keep the higher version authoritative downstream', async () => {
    const fitness = fitnessService({ shards: env.resources.mysql, publisher: fitnessOutboxPublisher(env.resources) });
    const rec = await fitness.record({ detectId: 10001, userId: 4, projectId: 3, schoolId: 77, grade: 5, result: '2.21', unit: 'm' });
    const { dataId, shard } = rec.result;
    const good = fromKafkaSink(env.resources.kafka, { timeoutMs: 5000 });
    const down = fromKafkaSink(fromKafka({ ...env.settings, kafkaBrokers: ['127.0.0.1:1'] }), { timeoutMs: 300 });
    const opts = (sink: typeof good): OutboxRelayOptions => ({
      store: { kind: 'mysql', shard, db: env.resources.mysql.shard(shard).db },
      sink,
      // v1's retry is scheduled 1.5 s out, long enough for v2 to overtake it.
      policy: exponentialBackoff({ baseMs: 1500, maxMs: 1500, maxAttempts: 5, random: () => 1 }),
      batchSize: 100,
      pollIntervalMs: 20,
      leaseMs: 10000,
      publishTimeoutMs: 5000,
      owner: 'test',
      metrics: outboxMetrics(createRegistry(false)),
      logger: silentLogger,
    });
    try {
      expect(await relayOnce(opts(down))).toMatchObject({ failed: 1 }); // v1 could not be published
      await fitness.correct({ dataId, expectedVersion: 1, result: '2.31', unit: 'm' });
      expect(await relayOnce(opts(good))).toMatchObject({ claimed: 1, sent: 1 }); // v2 goes first
      await waitFor(async () => (await relayOnce(opts(good))).sent === 1, { what: 'v1 retried' });
    } finally {
      await good.close();
      await down.close();
    }
    const msgs = (await readTopic(env.resources.kafka, env.resources.topics.fitnessResults, (m) => m.filter((x) => x.key === String(dataId)).length >= 2)).filter((x) => x.key === String(dataId));
    expect(msgs.map((m) => m.envelope.version)).toEqual([2, 1]);

    projector = await startProjectorRole({ resources: env.resources, logger: silentLogger, registry: createRegistry(false), instanceId: 'test', stateChanges: discardStateChanges });
    const t = `${ident(env.settings.clickhouseDatabase)}.fitness_results`;
    const latest = async () => {
      const rs = await env.resources.clickhouse.query({
        query: `SELECT count() AS n, max(version) AS top, toString(argMax(result, version)) AS latest FROM ${t} WHERE data_id = ${uint(dataId)}`,
        format: 'JSONEachRow',
      });
      return (await rs.json<{ n: string | number; top: string | number; latest: string }>())[0]!;
    };
    const row = await waitFor(async () => {
      const r = await latest();
      return Number(r.n) >= 2 && r;
    }, { what: 'both versions projected' });
    expect(Number(row.top)).toBe(2);
    expect(row.latest.replace(/0+$/, '')).toBe('2.31');
    const final = await env.resources.clickhouse.query({ query: `SELECT version, toString(result) AS result FROM ${t} FINAL WHERE data_id = ${uint(dataId)}`, format: 'JSONEachRow' });
    expect((await final.json<{ version: string | number; result: string }>()).map((r) => [Number(r.version), r.result.replace(/0+$/, '')])).toEqual([[2, '2.31']]);
  });
});
