// Migrations on the real engines: applied twice they change nothing; a reordered shard list fails.
import { migrateAll } from '../app/migrateAll';
import { openResources } from '../app/resources';
import { ident } from './clickhouse/literal';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';

describe('migrations', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv({}, { migrate: false });
  });
  afterAll(() => env.cleanup());

  it('apply everything once, then nothing the second time', async () => {
    const first = await migrateAll(env.resources);
    expect(first.map((r) => r.engine)).toEqual(['mysql', 'mysql', 'postgres', 'clickhouse']);
    for (const r of first) expect(r.applied.length).toBeGreaterThan(0);

    const tablesBefore = await env.resources.mysql.shard(0).db.raw('SHOW TABLES');
    const second = await migrateAll(env.resources);
    for (const r of second) expect(r.applied).toEqual([]);
    const tablesAfter = await env.resources.mysql.shard(0).db.raw('SHOW TABLES');
    expect(tablesAfter[0]).toEqual(tablesBefore[0]);

    const migrations = `${ident(env.settings.clickhouseDatabase)}.schema_migrations`;
    const rs = await env.resources.clickhouse.query({ query: `SELECT count() AS n FROM ${migrations}`, format: 'JSONEachRow' });
    const [{ n }] = await rs.json<{ n: string }>();
    expect(Number(n)).toBe(first.find((r) => r.engine === 'clickhouse')!.applied.length);
  });

  it('records each shard identity and refuses a reordered shard list', async () => {
    await migrateAll(env.resources);
    // Each shard keeps its server: the list is reordered, not the databases moved.
    const swapped = openResources({
      ...env.settings,
      fitnessShardDatabases: [...env.settings.fitnessShardDatabases].reverse(),
      fitnessShards: [...env.settings.fitnessShards].reverse(),
    });
    try {
      await expect(migrateAll(swapped)).rejects.toThrow(
        /is fitness shard 1 but FITNESS_SHARDS \(or FITNESS_SHARD_DATABASES\) lists it as shard 0/,
      );
    } finally {
      await swapped.close();
    }
  });
});
