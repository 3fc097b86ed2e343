// Where a test's fitness shards live, and statements run on each shard's server. Shard i goes to server
// i mod n: by default the machine's MariaDB (MYSQL_HOST) and the stack's second server, so every suite
// that creates a test environment runs its shards on two servers.
import type { Settings } from '../../src/config/settings';
import { formatShardUrl } from '../../src/config/shardUrls';
import { secondLocalServer } from '../../src/devstack/mariadbServers';
import { mysqlKnex } from '../../src/infra/mysql/fromMysql';
import { onServer, shardServers, type MysqlLogin } from '../../src/infra/mysql/shardTargets';

/**
 * Where a test's shard databases live: shard i on server i mod n, the servers being those of FITNESS_SHARDS
 * when the environment sets it, else the machine's (MYSQL_HOST) and the stack's second server
 * (STACK_MYSQL_SECOND_PORT; 0 keeps every shard on MYSQL_HOST). URLs without credentials log in as MYSQL_USER.
 */
export function testShards(databases: string[], base: Settings): Pick<Settings, 'fitnessShardDatabases' | 'fitnessShards'> {
  const given = base.fitnessShards.length > 0;
  const second = secondLocalServer(base);
  const servers: Partial<MysqlLogin>[] = given
    ? shardServers(base).map((srv) => srv.login)
    : [{ host: base.mysqlHost, port: base.mysqlPort }, ...(second ? [second] : [])];
  if (!given && servers.length === 1) return { fitnessShardDatabases: databases, fitnessShards: [] };
  const fitnessShards = databases.map((database, i) => {
    const srv = servers[i % servers.length]!;
    return formatShardUrl({ host: srv.host!, port: srv.port!, database, user: srv.user, password: srv.password });
  });
  return { fitnessShardDatabases: databases, fitnessShards };
}

/** Runs `statement` (CREATE or DROP DATABASE ??) for every shard database, on the server it lives on. */
export async function onShardServers(s: Settings, statement: string): Promise<void> {
  for (const server of shardServers(s)) {
    const my = mysqlKnex(onServer(s, server.login), undefined, 1);
    try {
      for (const d of server.databases) await my.raw(statement, [d]);
    } finally {
      await my.destroy();
    }
  }
}
