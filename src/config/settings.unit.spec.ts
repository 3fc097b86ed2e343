import { ConfigError, loadSettings, renderEnvExample, settingsTable } from './settings';

describe('settings', () => {
  it('has a valid default for every setting', () => {
    const s = loadSettings({ TIDEMARK_ENV: 'development' });
    expect(s.httpPort).toBe(4000);
    expect(s.fitnessShardDatabases).toEqual(['tidemark_fitness_0', 'tidemark_fitness_1']);
    expect(s.roles).toEqual(['gateway', 'relay', 'projector', 'reconciler']);
    expect(s.fitnessStrategy).toBe('outbox');
    expect(s.ordersStrategy).toBe('kafka-first');
  });

  it('reads PUBLICATION_STRATEGIES as domain=strategy pairs and refuses anything else', () => {
    const s = loadSettings({ TIDEMARK_ENV: 'development', PUBLICATION_STRATEGIES: 'notes=kafka-first, fitness=outbox' });
    expect(s.publicationStrategies).toEqual({ notes: 'kafka-first', fitness: 'outbox' });
    for (const bad of ['notes=fast', 'Notes=outbox', 'notes', 'notes=outbox=x'])
      expect(() => loadSettings({ TIDEMARK_ENV: 'development', PUBLICATION_STRATEGIES: bad })).toThrow(/PUBLICATION_STRATEGIES/);
  });

  it('fails fast naming every bad variable and what to set', () => {
    let err: unknown;
    try {
      loadSettings({ TIDEMARK_ENV: 'development', HTTP_PORT: 'abc', TIDEMARK_ROLES: 'gateway,juggler', KAFKA_BROKERS: 'nohostport' });
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
    expect(() => loadSettings({ TIDEMARK_ENV: 'development', RELAY_LEASE_MS: '1000', RELAY_PUBLISH_TIMEOUT_MS: '5000' })).toThrow(
      /RELAY_LEASE_MS \(1000\) must be greater than RELAY_PUBLISH_TIMEOUT_MS/,
    );
  });

  it('rejects unsafe database names and duplicate shards', () => {
    expect(() => loadSettings({ TIDEMARK_ENV: 'development', FITNESS_SHARD_DATABASES: 'a;drop' })).toThrow(/FITNESS_SHARD_DATABASES/);
    expect(() => loadSettings({ TIDEMARK_ENV: 'development', FITNESS_SHARD_DATABASES: 'a,a' })).toThrow(/lists a database twice/);
  });

  it('refuses the embedded ClickHouse when the roles that use it are split across processes', () => {
    expect(() => loadSettings({ TIDEMARK_ENV: 'development', CLICKHOUSE_ENGINE: 'embedded', TIDEMARK_ROLES: 'gateway,relay' })).toThrow(
      new RegExp(
        'CLICKHOUSE_ENGINE=embedded runs ClickHouse inside one process, ' +
          'but TIDEMARK_ROLES=gateway,relay leaves out projector, reconciler.*CLICKHOUSE_ENGINE=server',
        's',
      ),
    );
    expect(loadSettings({ TIDEMARK_ENV: 'development', CLICKHOUSE_ENGINE: 'embedded' }).clickhouseEngine).toBe('embedded'); // every role: fine
    // A relay alone uses no projection.
    expect(loadSettings({ TIDEMARK_ENV: 'development', CLICKHOUSE_ENGINE: 'embedded', TIDEMARK_ROLES: 'relay' }).roles).toEqual(['relay']);
    expect(() => loadSettings({ TIDEMARK_ENV: 'development', CLICKHOUSE_ENGINE: 'chdb' })).toThrow(/CLICKHOUSE_ENGINE/);
    expect(() => loadSettings({ TIDEMARK_ENV: 'development', KAFKA_VERSION: '3.8' })).toThrow(/KAFKA_VERSION/);
  });

  it('parses booleans and lists from the environment', () => {
    const s = loadSettings({
      TIDEMARK_ENV: 'development',
      GRAPHQL_INTROSPECTION: 'false',
      KAFKA_BROKERS: 'a:1, b:2',
      TIDEMARK_ROLES: 'relay',
    });
    expect(s.graphqlIntrospection).toBe(false);
    expect(s.kafkaBrokers).toEqual(['a:1', 'b:2']);
    expect(s.roles).toEqual(['relay']);
  });

  it('documents every setting in .env.example', () => {
    const text = renderEnvExample();
    for (const s of Object.values(settingsTable)) expect(text).toContain(s.env);
  });

  it('manages the local stack by default only in development', () => {
    const prod = { AUTH_JWT_SECRET: 'x'.repeat(32), ALLOW_INSECURE_TRANSPORT: 'true' };
    expect(loadSettings({ TIDEMARK_ENV: 'development' }).stackManage).toBe(true);
    expect(loadSettings({ TIDEMARK_ENV: 'test' }).stackManage).toBe(false);
    expect(loadSettings({ TIDEMARK_ENV: 'production', ...prod }).stackManage).toBe(false);
    expect(loadSettings({ TIDEMARK_ENV: 'production', ...prod, STACK_MANAGE: 'true' }).stackManage).toBe(true);
    expect(loadSettings({ TIDEMARK_ENV: 'development', STACK_MANAGE: 'false' }).stackManage).toBe(false);
  });

  it('is production unless told otherwise: a secret is required, introspection and the explorer are off', () => {
    expect(() => loadSettings({})).toThrow(/Set AUTH_JWT_SECRET or AUTH_JWKS_URL/);
    expect(loadSettings({ AUTH_JWT_SECRET: 'x'.repeat(32), ALLOW_INSECURE_TRANSPORT: 'true' })).toMatchObject({
      env: 'production',
      stackManage: false,
      graphqlIntrospection: false,
      graphqlExplorer: false,
      consoleDevTokens: false,
    });
    expect(loadSettings({ TIDEMARK_ENV: 'development' })).toMatchObject({ graphqlIntrospection: true, graphqlExplorer: true });
    expect(loadSettings({ TIDEMARK_ENV: 'development', NODE_ENV: 'production' }).env).toBe('development');
  });

  it('binds development to loopback addresses only', () => {
    expect(() => loadSettings({ TIDEMARK_ENV: 'development', HTTP_HOST: '0.0.0.0' })).toThrow(/HTTP_HOST must be a loopback address/);
    expect(() => loadSettings({ TIDEMARK_ENV: 'development', OPS_HOST: '10.1.2.3' })).toThrow(/OPS_HOST must be a loopback address/);
    for (const h of ['127.0.0.1', 'localhost', '::1']) expect(loadSettings({ TIDEMARK_ENV: 'development', HTTP_HOST: h }).httpHost).toBe(h);
  });

  it('never echoes a secret or the credentials of a URL in a configuration error', () => {
    let msg = '';
    try {
      loadSettings({
        TIDEMARK_ENV: 'development',
        AUTH_JWT_SECRET: 'short-secret-value',
        CLICKHOUSE_URL: 'http://admin:hunter2@ch:8123 x',
      });
    } catch (e) {
      msg = (e as ConfigError).message;
    }
    expect(msg).toContain('AUTH_JWT_SECRET=(value hidden) is invalid');
    expect(msg).toContain('CLICKHOUSE_URL=');
    for (const secret of ['short-secret-value', 'hunter2', 'admin']) expect(msg).not.toContain(secret);
  });

  it('parses CORS origins and refuses algorithms the key cannot verify', () => {
    expect(loadSettings({ TIDEMARK_ENV: 'development' }).corsOrigins).toEqual([]);
    expect(
      loadSettings({ TIDEMARK_ENV: 'development', CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(() => loadSettings({ TIDEMARK_ENV: 'development', CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(/CORS_ORIGINS/);
    expect(() =>
      loadSettings({ TIDEMARK_ENV: 'development', AUTH_JWKS_URL: 'https://idp.example.com/jwks', AUTH_ALGORITHMS: 'HS256' }),
    ).toThrow(/needs a shared secret/);
    expect(() => loadSettings({ TIDEMARK_ENV: 'development', AUTH_JWT_SECRET: 'x'.repeat(32), AUTH_ALGORITHMS: 'RS256' })).toThrow(
      /only HS256/,
    );
    expect(() => loadSettings({ TIDEMARK_ENV: 'development', AUTH_ALGORITHMS: 'none' })).toThrow(/AUTH_ALGORITHMS/);
    expect(
      loadSettings({ TIDEMARK_ENV: 'development', AUTH_JWKS_URL: 'https://idp.example.com/jwks', AUTH_ALGORITHMS: 'RS256,ES256' })
        .authAlgorithms,
    ).toEqual(['RS256', 'ES256']);
  });
});
