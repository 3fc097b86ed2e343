import { ConfigError, loadSettings, renderEnvExample, settingsTable } from './settings';

describe('settings', () => {
  it('has a valid default for every setting', () => {
    const s = loadSettings({});
    expect(s.httpPort).toBe(4000);
    expect(s.fitnessShardDatabases).toEqual(['tidemark_fitness_0', 'tidemark_fitness_1']);
    expect(s.roles).toEqual(['gateway', 'relay', 'projector', 'reconciler']);
    expect(s.fitnessStrategy).toBe('outbox');
    expect(s.ordersStrategy).toBe('kafka-first');
  });

  it('fails fast naming every bad variable and what to set', () => {
    let err: unknown;
    try {
      loadSettings({ HTTP_PORT: 'abc', TIDEMARK_ROLES: 'gateway,juggler', KAFKA_BROKERS: 'nohostport' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as ConfigError).message;
    expect(msg).toContain('HTTP_PORT="abc" is invalid');
    expect(msg).toContain('Set HTTP_PORT:');
    expect(msg).toContain('TIDEMARK_ROLES');
    expect(msg).toContain('KAFKA_BROKERS');
    expect((err as ConfigError).problems).toHaveLength(3);
  });

  it('rejects a relay lease that is not longer than the publish timeout', () => {
    expect(() => loadSettings({ RELAY_LEASE_MS: '1000', RELAY_PUBLISH_TIMEOUT_MS: '5000' })).toThrow(
      /RELAY_LEASE_MS \(1000\) must be greater than RELAY_PUBLISH_TIMEOUT_MS/,
    );
  });

  it('rejects unsafe database names and duplicate shards', () => {
    expect(() => loadSettings({ FITNESS_SHARD_DATABASES: 'a;drop' })).toThrow(/FITNESS_SHARD_DATABASES/);
    expect(() => loadSettings({ FITNESS_SHARD_DATABASES: 'a,a' })).toThrow(/lists a database twice/);
  });

  it('refuses the embedded ClickHouse when the roles that use it are split across processes', () => {
    expect(() => loadSettings({ CLICKHOUSE_ENGINE: 'embedded', TIDEMARK_ROLES: 'gateway,relay' })).toThrow(
      new RegExp(
        'CLICKHOUSE_ENGINE=embedded runs ClickHouse inside one process, ' +
          'but TIDEMARK_ROLES=gateway,relay leaves out projector, reconciler.*CLICKHOUSE_ENGINE=server',
        's',
      ),
    );
    expect(loadSettings({ CLICKHOUSE_ENGINE: 'embedded' }).clickhouseEngine).toBe('embedded'); // every role: fine
    expect(loadSettings({ CLICKHOUSE_ENGINE: 'embedded', TIDEMARK_ROLES: 'relay' }).roles).toEqual(['relay']); // uses no projection
    expect(() => loadSettings({ CLICKHOUSE_ENGINE: 'chdb' })).toThrow(/CLICKHOUSE_ENGINE/);
    expect(() => loadSettings({ KAFKA_VERSION: '3.8' })).toThrow(/KAFKA_VERSION/);
  });

  it('parses booleans and lists from the environment', () => {
    const s = loadSettings({ GRAPHQL_INTROSPECTION: 'false', KAFKA_BROKERS: 'a:1, b:2', TIDEMARK_ROLES: 'relay' });
    expect(s.graphqlIntrospection).toBe(false);
    expect(s.kafkaBrokers).toEqual(['a:1', 'b:2']);
    expect(s.roles).toEqual(['relay']);
  });

  it('documents every setting in .env.example', () => {
    const text = renderEnvExample();
    for (const s of Object.values(settingsTable)) expect(text).toContain(s.env);
  });

  it('manages the local stack by default only in development', () => {
    expect(loadSettings({}).stackManage).toBe(true);
    expect(loadSettings({ TIDEMARK_ENV: 'test' }).stackManage).toBe(false);
    expect(loadSettings({ TIDEMARK_ENV: 'production', AUTH_JWT_SECRET: 'x'.repeat(32) }).stackManage).toBe(false);
    expect(loadSettings({ TIDEMARK_ENV: 'production', AUTH_JWT_SECRET: 'x'.repeat(32), STACK_MANAGE: 'true' }).stackManage).toBe(true);
    expect(loadSettings({ STACK_MANAGE: 'false' }).stackManage).toBe(false);
    // NODE_ENV=production alone means production (a secret is then required), unless TIDEMARK_ENV says otherwise.
    expect(() => loadSettings({ NODE_ENV: 'production' })).toThrow(/Set AUTH_JWT_SECRET or AUTH_JWKS_URL/);
    expect(loadSettings({ NODE_ENV: 'production', AUTH_JWT_SECRET: 'x'.repeat(32) })).toMatchObject({
      env: 'production',
      stackManage: false,
    });
    expect(loadSettings({ NODE_ENV: 'production', TIDEMARK_ENV: 'development' }).env).toBe('development');
    expect(loadSettings({ NODE_ENV: 'test' }).env).toBe('development');
  });

  it('parses CORS origins and refuses algorithms the key cannot verify', () => {
    expect(loadSettings({}).corsOrigins).toEqual([]);
    expect(loadSettings({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(() => loadSettings({ CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadSettings({ AUTH_JWKS_URL: 'https://idp.example.com/jwks', AUTH_ALGORITHMS: 'HS256' })).toThrow(
      /needs a shared secret/,
    );
    expect(() => loadSettings({ AUTH_JWT_SECRET: 'x'.repeat(32), AUTH_ALGORITHMS: 'RS256' })).toThrow(/only HS256/);
    expect(() => loadSettings({ AUTH_ALGORITHMS: 'none' })).toThrow(/AUTH_ALGORITHMS/);
    expect(loadSettings({ AUTH_JWKS_URL: 'https://idp.example.com/jwks', AUTH_ALGORITHMS: 'RS256,ES256' }).authAlgorithms).toEqual([
      'RS256',
      'ES256',
    ]);
  });
});
