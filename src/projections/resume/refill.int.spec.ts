// A read model that lost data refills itself (issue 30, item 3), against the real Kafka and ClickHouse:
// a store emptied while no member runs (a new ClickHouse on the same Kafka), emptied under steady
// writes, and restored from a copy taken earlier. Each time every event on Kafka is applied again with
// no operator call, and the checkpoints reach the log's end.
import type { Producer } from 'kafkajs';
import { ident, list, str, uint } from '../../infra/clickhouse/literal';
import { fromKafkaProducer } from '../../infra/kafka/producer';
import { sleep, waitFor } from '../../shared/lifecycle';
import { fitnessEvent, produceEvents } from '../../../test/support/projectionEvents';
import { testProjectorOptions } from '../../../test/support/projectorOptions';
import { createTestEnv, type TestEnv } from '../../../test/support/testEnv';
import { startProjector } from '../projector';
import type { Projector } from '../projectorOptions';

const campaign = { detectId: 20001, projectId: 4, schoolId: 9, grade: 6 };
const TABLES = ['projection_checkpoints', 'fitness_results'] as const;

describe('a read model that lost data refills itself', () => {
  let env: TestEnv;
  let producer: Producer;
  let nextId = 5_000_000;
  const running = new Set<Projector>();

  beforeAll(async () => {
    env = await createTestEnv();
    producer = fromKafkaProducer(env.resources.kafka);
    await producer.connect();
  });
  afterAll(async () => {
    for (const p of running) await p.stop();
    await producer?.disconnect();
    await env?.cleanup();
  });

  const db = () => ident(env.settings.clickhouseDatabase);
  const command = (query: string) => env.resources.clickhouse.command({ query });
  async function start(): Promise<Projector> {
    const p = await startProjector(testProjectorOptions(env, { checkpointCheckMs: 200 }));
    running.add(p);
    await p.joined();
    return p;
  }
  async function stop(p: Projector): Promise<void> {
    await p.stop();
    running.delete(p);
  }
  /** Produces `n` new results (one data id each) and returns their ids. */
  async function write(n: number): Promise<number[]> {
    const ids = Array.from({ length: n }, () => nextId++);
    await produceEvents(
      producer,
      env.resources.topics.events.fitness,
      ids.map((dataId) => fitnessEvent({ ...campaign, dataId, userId: dataId, result: '1.500', version: 1 })),
    );
    return ids;
  }
  /** How many of `ids` the read model holds. */
  async function held(ids: number[]): Promise<number> {
    const rs = await env.resources.clickhouse.query({
      query: `SELECT count(DISTINCT data_id) AS n FROM ${db()}.fitness_results WHERE data_id IN ${list(ids, uint)}`,
      format: 'JSONEachRow',
    });
    return Number((await rs.json<{ n: string }>())[0]!.n);
  }
  async function caughtUp(groupId: string): Promise<boolean> {
    const topic = env.resources.topics.events.fitness;
    const admin = env.resources.kafka.admin();
    await admin.connect();
    const end = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
    const rs = await env.resources.clickhouse.query({
      query: `SELECT partition, toString(max(next_offset)) AS o FROM ${db()}.projection_checkpoints
              WHERE consumer = ${str(groupId)} AND topic = ${str(topic)} GROUP BY partition`,
      format: 'JSONEachRow',
    });
    const cp = new Map((await rs.json<{ partition: number; o: string }>()).map((r) => [Number(r.partition), r.o]));
    return end.every((p) => p.high === '0' || cp.get(p.partition) === p.high);
  }
  /** Waits until the read model holds every id and its checkpoints reach the log end; reports how long (never asserted). */
  const allBack = async (ids: number[], groupId: string, what: string) => {
    const t0 = Date.now();
    await waitFor(async () => (await held(ids)) === ids.length && (await caughtUp(groupId)), { timeoutMs: 60000, what });
    process.stderr.write(`[refill] ${what}: ${ids.length} results in ${Date.now() - t0} ms\n`);
  };
  const truncate = async () => {
    for (const t of TABLES) await command(`TRUNCATE TABLE ${db()}.${ident(t)}`);
  };

  it('a new, empty store on the same Kafka: the next member seeks back from the group offsets, idle partitions too', async () => {
    const ids = await write(120);
    const first = await start();
    await allBack(ids, first.groupId, 'the first member to apply everything');
    await stop(first);

    await truncate(); // nothing arrives after this: every partition is idle
    expect(await held(ids)).toBe(0);
    const second = await start();
    await allBack(ids, second.groupId, 'the emptied store refilled from Kafka');
    await stop(second);
  });

  it('emptied under steady writes: the member finds the store behind what it wrote and re-applies', async () => {
    const p = await start();
    const ids: number[] = [];
    let writing = true;
    const writer = (async () => {
      while (writing) {
        ids.push(...(await write(5)));
        await sleep(20);
      }
    })();
    await waitFor(async () => ids.length > 100 && (await held(ids.slice(0, 100))) === 100, { timeoutMs: 30000, what: 'writes applied' });
    await truncate();
    await sleep(500);
    writing = false;
    await writer;
    await allBack(ids, p.groupId, 'every write applied again after the store was emptied');
    await stop(p);
  });

  it('restored from a copy taken earlier (checkpoints copied first): what came after the copy is applied again', async () => {
    const p = await start();
    const before = await write(60);
    await allBack(before, p.groupId, 'the writes before the copy');
    for (const t of TABLES) {
      await command(`DROP TABLE IF EXISTS ${db()}.${ident(`${t}_copy`)}`);
      await command(`CREATE TABLE ${db()}.${ident(`${t}_copy`)} AS ${db()}.${ident(t)}`);
      await command(`INSERT INTO ${db()}.${ident(`${t}_copy`)} SELECT * FROM ${db()}.${ident(t)}`);
    }
    const after = await write(60);
    await allBack(after, p.groupId, 'the writes after the copy');
    await truncate();
    for (const t of TABLES) await command(`INSERT INTO ${db()}.${ident(t)} SELECT * FROM ${db()}.${ident(`${t}_copy`)}`);
    await allBack([...before, ...after], p.groupId, 'the writes after the copy applied again on the restored store');
    await stop(p);
  });
});
