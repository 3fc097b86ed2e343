// The MariaDB/MySQL servers the stack manager knows, and who runs each:
//   machine   MYSQL_HOST:MYSQL_PORT, the machine's service (started, or installed, when local and down);
//   stack     any other local server: the second server (STACK_MYSQL_SECOND_PORT, 3307) and every local
//             port a FITNESS_SHARDS URL names, run by the stack manager from <STACK_DIR>/mariadb-<port>;
//   external  a server elsewhere a shard URL names: only checked, its owners provision it.
// Each carries the logins and shard databases that must work on it (from shardTargets, the one reader
// of the shard settings), so `up` provisions and `status` checks exactly what the shards will use.
import type { Settings } from '../config/settings';
import { loginOf, shardTargets, type MysqlLogin } from '../infra/mysql/shardTargets';

export type MariadbKind = 'machine' | 'stack' | 'external';

/** A login that must work on a server, and the shard databases it uses there. */
export interface ServerLogin extends MysqlLogin {
  databases: string[];
}

export interface MariadbServer {
  /** mysql for the machine's server, mysql-2, mysql-3, ... for the others (status and progress lines). */
  name: string;
  host: string;
  port: number;
  kind: MariadbKind;
  /** Logins that must work: every shard's on this server, and MYSQL_USER's on local servers (tests and tools use it). */
  logins: ServerLogin[];
  /** Every shard database on this server. */
  databases: string[];
}

export function isLocalHost(host: string): boolean {
  return ['127.0.0.1', 'localhost'].includes(host.toLowerCase());
}

/** The stack's second local server (tests put shard 1 there), or undefined when there is none. */
export function secondLocalServer(
  s: Pick<Settings, 'mysqlHost' | 'mysqlPort' | 'stackMysqlSecondPort'>,
): { host: string; port: number } | undefined {
  const port = s.stackMysqlSecondPort;
  // Only beside a local machine server: a deployment on external servers has no local stack to extend.
  if (port === 0 || !isLocalHost(s.mysqlHost) || port === s.mysqlPort) return undefined;
  return { host: '127.0.0.1', port };
}

export function mariadbServers(s: Settings): MariadbServer[] {
  const servers = new Map<string, MariadbServer>();
  const keyOf = (host: string, port: number) => `${isLocalHost(host) ? '127.0.0.1' : host.toLowerCase()}:${port}`;
  const machineKey = keyOf(s.mysqlHost, s.mysqlPort);
  const add = (host: string, port: number): MariadbServer => {
    const key = keyOf(host, port);
    let server = servers.get(key);
    if (!server) {
      const kind: MariadbKind = key === machineKey ? 'machine' : isLocalHost(host) ? 'stack' : 'external';
      server = { name: servers.size === 0 ? 'mysql' : `mysql-${servers.size + 1}`, host, port, kind, logins: [], databases: [] };
      servers.set(key, server);
    }
    return server;
  };
  const fallback = (server: MariadbServer): MysqlLogin => ({
    host: server.host,
    port: server.port,
    user: s.mysqlUser,
    password: s.mysqlPassword,
  });
  const machine = add(s.mysqlHost, s.mysqlPort);
  const second = secondLocalServer(s);
  if (second) add(second.host, second.port);
  for (const t of shardTargets(s)) {
    const server = add(t.host, t.port);
    server.databases.push(t.database);
    loginOn(server, loginOf(t)).databases.push(t.database);
  }
  for (const server of servers.values()) if (server.kind !== 'external' || server === machine) loginOn(server, fallback(server));
  return [...servers.values()];
}

function loginOn(server: MariadbServer, login: MysqlLogin): ServerLogin {
  let found = server.logins.find((l) => l.user === login.user && l.password === login.password);
  if (!found) server.logins.push((found = { ...login, databases: [] }));
  return found;
}
