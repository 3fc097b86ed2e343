// Out-of-order versions: version 1 of a result fails to publish and is retried after version 2 went
// out, so Kafka holds v2 before v1 in the result's partition. Downstream (the projector into
// ClickHouse ReplacingMergeTree(version)) the higher version stays authoritative.
import { startProjectorRole } from '../../app/starters/projector';
import { ident, str, uint } from '../../infra/clickhouse/literal';
import { fromKafka } from '../../infra/kafka/fromKafka';
import { exponentialBackoff } from '../../shared/backoff';
import { fromKafkaSink, type EventSink } from '../../relay/kafkaSink';
import { relayOnce } from '../../relay/relayEngine';
import { mysqlStore, tableOf, testRelayDeps } from '../../../test/support/relayHarness';
import type { Stoppable } from '../../shared/lifecycle';
import { waitFor } from '../../shared/lifecycle';
import { createTestEnv, testRoleDeps, type TestEnv } from '../../../test/support/testEnv';
import { readTopic } from '../../../test/support/readTopic';
import { fitnessService } from './service';
import { fitnessOutboxPublisher } from '../../app/wiring/fitness';
import { discardStateChanges } from '../../publication/stateChanges/stateChange';
import { TEST_SERVICE } from '../../../test/support/principals';

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
    const fitness = fitnessService({ shards: env.resources.mysql, publisher: fitnessOutboxPublisher(env.resources, discardStateChanges) });
    const rec = await fitness.record(
      { detectId: 10001, userId: 4, projectId: 3, schoolId: 77, grade: 5, result: '2.21', unit: 'm' },
      TEST_SERVICE,
    );
    const { dataId, shard } = rec.result;
    const good = fromKafkaSink(env.resources.kafka, { timeoutMs: 5000 });
    const down = fromKafkaSink(fromKafka({ ...env.settings, kafkaBrokers: ['127.0.0.1:1'] }), { timeoutMs: 300 });
    const store = mysqlStore(env, shard);
    // v1's retry is scheduled 1.5 s out, long enough for v2 to overtake it.
    const policy = exponentialBackoff({ baseMs: 1500, maxMs: 1500, maxAttempts: 5, random: () => 1 });
    const once = (sink: EventSink) => relayOnce(tableOf(store), testRelayDeps(store, sink, { policy }));
    try {
      expect(await once(down)).toMatchObject({ released: 1 }); // v1 could not be published (an outage)
      await fitness.correct({ dataId, expectedVersion: 1, result: '2.31', unit: 'm' }, TEST_SERVICE);
      expect(await once(good)).toMatchObject({ claimed: 1, sent: 1 }); // v2 goes first
      await waitFor(async () => (await once(good)).sent === 1, { what: 'v1 retried' });
    } finally {
      await good.close();
      await down.close();
    }
    const msgs = (
      await readTopic(
        env.resources.kafka,
        env.resources.topics.events.fitness,
        (m) => m.filter((x) => x.key === String(dataId)).length >= 2,
      )
    ).filter((x) => x.key === String(dataId));
    expect(msgs.map((m) => m.envelope.version)).toEqual([2, 1]);

    projector = await startProjectorRole(testRoleDeps(env));
    const t = `${ident(env.settings.clickhouseDatabase)}.fitness_results`;
    const latest = async () => {
      const rs = await env.resources.clickhouse.query({
        query: `SELECT count() AS n, max(version) AS top, toString(argMax(result, version)) AS latest FROM ${t} WHERE data_id = ${uint(dataId)}`,
        format: 'JSONEachRow',
      });
      return (await rs.json<{ n: string | number; top: string | number; latest: string }>())[0]!;
    };
    // Applied once the projector's checkpoint has passed v1 (Kafka's later message). Not by counting
    // physical rows: current ClickHouse merges the two parts within seconds, keeping v2 alone.
    const v1 = msgs[1]!;
    const checkpoint = `${ident(env.settings.clickhouseDatabase)}.projection_checkpoints`;
    await waitFor(
      async () => {
        const rs = await env.resources.clickhouse.query({
          query: `SELECT toString(max(next_offset)) AS o FROM ${checkpoint}
                WHERE topic = ${str(env.resources.topics.events.fitness)} AND partition = ${uint(v1.partition)}`,
          format: 'JSONEachRow',
        });
        const [r] = await rs.json<{ o: string }>();
        return BigInt(r?.o ?? '0') > BigInt(v1.offset);
      },
      { what: 'both versions projected' },
    );
    const row = await latest();
    expect(Number(row.n)).toBeGreaterThanOrEqual(1);
    expect(Number(row.top)).toBe(2);
    expect(row.latest.replace(/0+$/, '')).toBe('2.31');
    const final = await env.resources.clickhouse.query({
      query: `SELECT version, toString(result) AS result FROM ${t} FINAL WHERE data_id = ${uint(dataId)}`,
      format: 'JSONEachRow',
    });
    expect(
      (await final.json<{ version: string | number; result: string }>()).map((r) => [Number(r.version), r.result.replace(/0+$/, '')]),
    ).toEqual([[2, '2.31']]);
  });
});
