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
    expect(() => loadSettings({ RELAY_LEASE_MS: '1000', RELAY_PUBLISH_TIMEOUT_MS: '5000' })).toThrow(/RELAY_LEASE_MS \(1000\) must be greater than RELAY_PUBLISH_TIMEOUT_MS/);
  });

  it('rejects unsafe database names and duplicate shards', () => {
    expect(() => loadSettings({ FITNESS_SHARD_DATABASES: 'a;drop' })).toThrow(/FITNESS_SHARD_DATABASES/);
    expect(() => loadSettings({ FITNESS_SHARD_DATABASES: 'a,a' })).toThrow(/lists a database twice/);
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
});
