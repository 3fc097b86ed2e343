// FITNESS_SHARDS: one URL per shard. Parsed strictly, checked at start with problems that name the
// shard and never a password, the databases derived from it, and production's password rules applied
// to the passwords the URLs carry.
import { ConfigError, loadSettings, settingsToEnv } from './settings';
import { formatShardUrl, parseShardUrl } from './shardUrls';

const dev = { TIDEMARK_ENV: 'development' };
const SECRET = 's3cr3t-p@ss,word/x';
const withSecret = `mysql://alice:${encodeURIComponent(SECRET)}@db2.internal:3307/fit_1`;

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadSettings(env);
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
}

describe('shard URLs', () => {
  it('parses host, port, database and percent-encoded credentials; absent parts fall back', () => {
    expect(parseShardUrl(withSecret)).toEqual({ host: 'db2.internal', port: 3307, database: 'fit_1', user: 'alice', password: SECRET });
    expect(parseShardUrl('mysql://db1/fit_0')).toEqual({ host: 'db1', port: 3306, database: 'fit_0' });
    expect(parseShardUrl('mysql://bob@[::1]:3310/x')).toEqual({ host: '::1', port: 3310, database: 'x', user: 'bob' });
    expect(parseShardUrl(formatShardUrl({ host: '::1', port: 3310, database: 'x', user: 'b@b', password: SECRET }))).toEqual({
      host: '::1',
      port: 3310,
      database: 'x',
      user: 'b@b',
      password: SECRET,
    });
  });

  it.each([
    ['postgres://db1:5432/x', /not a mysql:\/\/ URL/],
    ['mysql://db1:3306', /one database name/],
    ['mysql://db1:3306/a/b', /one database name/],
    ['mysql://db1:3306/a-b', /one database name/],
    ['mysql://db1:3306/x?ssl=true', /no \?options/],
    ['mysql://u:p%zz@db1:3306/x', /percent-encoding/],
    ['mysql://u:p/w@db1/x', /is not a mysql:\/\/\[user:password@\]host:port\/database URL/],
    ['mysql://db1:99999/x', /is not a mysql/],
  ])('refuses %s', (url, why) => {
    expect(parseShardUrl(url)).toMatch(why);
  });

  it("derives the shard databases from the URLs, and keeps today's list without them", () => {
    const s = loadSettings({ ...dev, FITNESS_SHARDS: `mysql://127.0.0.1:3306/tidemark_a, ${withSecret}` });
    expect(s.fitnessShardDatabases).toEqual(['tidemark_a', 'fit_1']);
    expect(s.fitnessShards).toHaveLength(2);
    const plain = loadSettings(dev);
    expect(plain.fitnessShards).toEqual([]);
    expect(plain.fitnessShardDatabases).toEqual(['tidemark_fitness_0', 'tidemark_fitness_1']);
  });

  it('round-trips through settingsToEnv (both variables written, and they agree)', () => {
    const s = loadSettings({ ...dev, FITNESS_SHARDS: `mysql://127.0.0.1:3306/tidemark_a,${withSecret}` });
    expect(loadSettings(settingsToEnv(s))).toEqual(s);
  });

  it('names each bad shard and the setting, and never echoes a password', () => {
    const problems = problemsOf({ ...dev, FITNESS_SHARDS: `${withSecret},mysql://carol:${SECRET}@db3/x,${withSecret}` });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('FITNESS_SHARDS=(value hidden) is invalid');
    // The unencoded password's comma splits its URL in two: neither half is shown.
    expect(problems[0]).toContain('shard 1 needs one database name');
    expect(problems[0]).toContain('shard 2 is not a mysql://');
    expect(problems[0]).toContain('shard 3 names the same database as shard 0 (db2.internal:3307/fit_1)');
    for (const leak of [SECRET, encodeURIComponent(SECRET), 's3cr3t']) expect(problems[0]).not.toContain(leak);
  });

  it('refuses a FITNESS_SHARD_DATABASES that disagrees, and one database name on two servers', () => {
    expect(problemsOf({ ...dev, FITNESS_SHARDS: withSecret, FITNESS_SHARD_DATABASES: 'fit_1' })).toEqual([]);
    // The default, as a .env copied from .env.example has it, is not a disagreement.
    expect(problemsOf({ ...dev, FITNESS_SHARDS: withSecret, FITNESS_SHARD_DATABASES: 'tidemark_fitness_0,tidemark_fitness_1' })).toEqual(
      [],
    );
    expect(problemsOf({ ...dev, FITNESS_SHARDS: withSecret, FITNESS_SHARD_DATABASES: 'fit_9' })[0]).toMatch(
      /FITNESS_SHARD_DATABASES \(fit_9\) disagrees with the databases of FITNESS_SHARDS \(fit_1\)/,
    );
    expect(problemsOf({ ...dev, FITNESS_SHARDS: 'mysql://db1/f,mysql://db2/f' })[0]).toMatch(/FITNESS_SHARDS lists a database twice/);
  });

  describe('in production', () => {
    const secure = {
      TIDEMARK_ENV: 'production',
      AUTH_JWT_SECRET: 'x'.repeat(32),
      MYSQL_TLS: 'verify',
      PG_TLS: 'verify',
      KAFKA_SSL: 'verify',
      CLICKHOUSE_URL: 'https://ch.internal:8443',
      CLICKHOUSE_PASSWORD: 'ch-pass-0123',
      PG_PASSWORD: 'pg-pass-0123',
    };

    it('refuses a shard URL carrying the local default password, naming the shard, not the password', () => {
      const problems = problemsOf({ ...secure, MYSQL_PASSWORD: 'my-pass-0123', FITNESS_SHARDS: 'mysql://u:tidemark@db1:3306/f0' });
      expect(problems).toEqual([
        'FITNESS_SHARDS shard 0 (db1:3306/f0) has the local default password: set a password of its own. ' +
          'Fix it, or set ALLOW_INSECURE_TRANSPORT=true to start anyway.',
      ]);
    });

    it('checks MYSQL_PASSWORD only when a shard logs in with it', () => {
      const own = `mysql://u:${encodeURIComponent(SECRET)}@db1:3306/f0`;
      expect(problemsOf({ ...secure, FITNESS_SHARDS: own })).toEqual([]);
      expect(problemsOf({ ...secure, FITNESS_SHARDS: `${own},mysql://db2:3306/f1` })[0]).toMatch(
        /^MYSQL_PASSWORD is empty or the local default/,
      );
    });
  });
});
