// Where each fitness shard lives: its server, its login and its database. This is the one place that
// reads FITNESS_SHARDS (one URL per shard, each on a server of its own if you like) or, without it,
// FITNESS_SHARD_DATABASES on MYSQL_HOST:MYSQL_PORT; every connection to a shard (the pools, the stack
// manager, tests and benchmarks) is opened from these targets. TLS is the MYSQL_TLS* settings for all.
import { parseShardUrl, serverAddress } from '../../config/shardUrls';
import { ConfigError } from '../../config/settings';
import type { MysqlServerSettings, ShardTargetSettings } from '../../config/slices';

/** A server and the login used on it. */
export interface MysqlLogin {
  host: string;
  port: number;
  user: string;
  password: string;
}

export interface ShardTarget extends MysqlLogin {
  index: number;
  database: string;
}

/** A server (as one login) and the shard databases it holds, in shard order. */
export interface ShardServer {
  address: string;
  login: MysqlLogin;
  databases: string[];
}

export type { ShardTargetSettings };

/** Every shard's target, in shard order. */
export function shardTargets(s: ShardTargetSettings): ShardTarget[] {
  const fallback = { user: s.mysqlUser, password: s.mysqlPassword };
  if (s.fitnessShards.length === 0)
    return s.fitnessShardDatabases.map((database, index) => ({ index, database, host: s.mysqlHost, port: s.mysqlPort, ...fallback }));
  const targets = s.fitnessShards.map((text, index) => {
    const u = parseShardUrl(text);
    if (typeof u === 'string') throw new ConfigError([`FITNESS_SHARDS shard ${index} ${u}`]);
    return {
      index,
      database: u.database,
      host: u.host,
      port: u.port,
      user: u.user ?? fallback.user,
      password: u.password ?? fallback.password,
    };
  });
  // loadSettings derives the databases from the URLs; settings assembled by hand (tests) must not
  // name other databases than their URLs, or one reader would open a database another never touches.
  const databases = targets.map((t) => t.database);
  if (databases.join() !== s.fitnessShardDatabases.join())
    throw new ConfigError([
      `fitnessShardDatabases (${s.fitnessShardDatabases.join(',')}) differs from the databases of FITNESS_SHARDS (${databases.join(',')}).`,
    ]);
  return targets;
}

/** The servers the shards live on, each with the databases it holds (one entry per server and login). */
export function shardServers(s: ShardTargetSettings): ShardServer[] {
  const out = new Map<string, ShardServer>();
  for (const t of shardTargets(s)) {
    const key = `${t.host.toLowerCase()}:${t.port}:${t.user}`;
    const server = out.get(key) ?? { address: serverAddress(t), login: loginOf(t), databases: [] };
    server.databases.push(t.database);
    out.set(key, server);
  }
  return [...out.values()];
}

export function loginOf(t: MysqlLogin): MysqlLogin {
  return { host: t.host, port: t.port, user: t.user, password: t.password };
}

/** Connection settings pointed at one server and login (for mysqlKnex), the rest (TLS, pool size) kept. */
export function onServer<S extends MysqlServerSettings>(s: S, login: MysqlLogin): S {
  return { ...s, mysqlHost: login.host, mysqlPort: login.port, mysqlUser: login.user, mysqlPassword: login.password };
}
