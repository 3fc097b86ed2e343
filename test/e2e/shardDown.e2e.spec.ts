// One shard server down (issue 30): the gateway stays ready, `degraded` naming MySQL with the shard in
// shardsDown; that shard's students get a typed, retriable STORE_UNAVAILABLE while the other shard's
// students keep writing, and reads go on. Shard 1's server is made unreachable by pointing its
// FITNESS_SHARDS URL at a closed port (what a dead server looks like to the pool).
import { startTidemark, type Tidemark } from '../../src/app/start';
import { formatShardUrl, parseShardUrl, type ShardUrl } from '../../src/config/shardUrls';
import { shardForUser } from '../../src/domains/fitness/sharding';
import { executeRaw } from '../support/graphqlClient';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

const RECORD = `mutation($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input) { result { dataId } } }`;
const LIST = `query($d: Int!) { fitnessResults(filter: { detectId: $d }, first: 10) { nodes { dataId } } }`;

describe('a gateway with one shard server down', () => {
  let env: TestEnv;
  let app: Tidemark;
  let url: string;
  let service: Record<string, string>;

  beforeAll(async () => {
    env = await createTestEnv();
    service = await authHeader(env.settings, 'service');
    const urls = env.settings.fitnessShards.length
      ? env.settings.fitnessShards
      : env.settings.fitnessShardDatabases.map((database) =>
          formatShardUrl({ host: env.settings.mysqlHost, port: env.settings.mysqlPort, database }),
        );
    const shard1 = parseShardUrl(urls[1]!) as ShardUrl;
    const fitnessShards = [urls[0]!, formatShardUrl({ ...shard1, host: '127.0.0.1', port: 1 })];
    app = await startTidemark({ ...env.settings, roles: ['gateway'], fitnessShards }, { migrate: false });
    url = app.gateway!.url;
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const studentOn = (shard: number, from: number) => {
    let u = from;
    while (shardForUser(u, 2) !== shard) u++;
    return u;
  };
  const record = (userId: number) =>
    executeRaw(
      url,
      RECORD,
      { input: { detectId: 30601, userId, projectId: 3, schoolId: 5, grade: 5, result: '2.21', unit: 'm' } },
      service,
    );

  it('stays ready, degraded, naming the shard', async () => {
    const res = await fetch(`${url.replace(/\/graphql$/, '')}/readyz`);
    expect({ status: res.status, body: await res.json() }).toMatchObject({
      status: 200,
      body: { status: 'degraded', failing: [], degraded: ['mysql'], shardsDown: [1] },
    });
  });

  it("writes the other shard's students, refuses the lost shard's with a typed retriable error, and reads on", async () => {
    for (let i = 0; i < 5; i++) {
      const ok = await record(studentOn(0, 306_000 + i * 10));
      expect(ok.errors).toBeUndefined();
    }
    const lost = await record(studentOn(1, 306_100));
    expect(lost.errors?.[0]?.extensions).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: true });
    expect(lost.errors?.[0]?.message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    const read = await executeRaw(url, LIST, { d: 30601 }, service);
    expect(read.errors).toBeUndefined();
  });
});
