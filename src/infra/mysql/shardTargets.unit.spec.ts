// The one reading of the shard settings: each shard's server, login and database, from FITNESS_SHARDS
// or, without it, FITNESS_SHARD_DATABASES on MYSQL_HOST:MYSQL_PORT; and the servers grouped for tools.
import { ConfigError, loadSettings } from '../../config/settings';
import { shardServers, shardTargets } from './shardTargets';

const dev = { TIDEMARK_ENV: 'development', MYSQL_USER: 'app', MYSQL_PASSWORD: 'app-pass' };

describe('shard targets', () => {
  it('puts every FITNESS_SHARD_DATABASES database on MYSQL_HOST:MYSQL_PORT without FITNESS_SHARDS', () => {
    const s = loadSettings({ ...dev, MYSQL_HOST: 'db0', MYSQL_PORT: '3316', FITNESS_SHARD_DATABASES: 'a,b' });
    expect(shardTargets(s)).toEqual([
      { index: 0, database: 'a', host: 'db0', port: 3316, user: 'app', password: 'app-pass' },
      { index: 1, database: 'b', host: 'db0', port: 3316, user: 'app', password: 'app-pass' },
    ]);
    expect(shardServers(s)).toEqual([
      { address: 'db0:3316', login: { host: 'db0', port: 3316, user: 'app', password: 'app-pass' }, databases: ['a', 'b'] },
    ]);
  });

  it('gives each URL its own server, with its own credentials or MYSQL_USER/MYSQL_PASSWORD', () => {
    const s = loadSettings({ ...dev, FITNESS_SHARDS: 'mysql://db1/a,mysql://bob:b%2Cw@db2:3307/b,mysql://db1:3306/c' });
    expect(shardTargets(s)).toEqual([
      { index: 0, database: 'a', host: 'db1', port: 3306, user: 'app', password: 'app-pass' },
      { index: 1, database: 'b', host: 'db2', port: 3307, user: 'bob', password: 'b,w' },
      { index: 2, database: 'c', host: 'db1', port: 3306, user: 'app', password: 'app-pass' },
    ]);
    expect(shardServers(s).map((x) => [x.address, x.databases])).toEqual([
      ['db1:3306', ['a', 'c']],
      ['db2:3307', ['b']],
    ]);
  });

  it('refuses hand-made settings whose databases are not those of their URLs', () => {
    const s = loadSettings({ ...dev, FITNESS_SHARDS: 'mysql://db1/a,mysql://db2/b' });
    expect(() => shardTargets({ ...s, fitnessShardDatabases: ['b', 'a'] })).toThrow(ConfigError);
    expect(() => shardTargets({ ...s, fitnessShards: ['mysql://db1'], fitnessShardDatabases: ['a'] })).toThrow(/FITNESS_SHARDS shard 0/);
  });
});
