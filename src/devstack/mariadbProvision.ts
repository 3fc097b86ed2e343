// What makes a MariaDB server usable by Tidemark, and making it so: every login of the server
// (mariadbServers.ts) logs in and sees its shard databases; provisioning, as root, creates each login
// with rights on tidemark_* databases (tests create uniquely named ones) and on its shard databases,
// and the shard databases themselves. Shared by the machine's server and the servers the stack runs.
import type { Knex } from 'knex';
import type { Settings } from '../config/settings';
import { mysqlSsl } from '../infra/tls';
import type { MariadbServer, ServerLogin } from './mariadbServers';
import { probeKnex } from './service';

/** A one-connection knex as a login (TLS from MYSQL_TLS*, as every shard connection). */
export function loginKnex(settings: Settings, login: { host: string; port: number; user: string; password: string }): Knex {
  return probeKnex('mysql2', {
    host: login.host,
    port: login.port,
    user: login.user,
    password: login.password,
    connectTimeout: 3000,
    ssl: mysqlSsl(settings),
  });
}

async function loginWorks(settings: Settings, login: ServerLogin): Promise<boolean> {
  const db = loginKnex(settings, login);
  try {
    await db.raw('SELECT 1');
    for (const d of login.databases) {
      const [rows] = (await db.raw('SELECT 1 FROM information_schema.schemata WHERE schema_name = ?', [d])) as [unknown[]];
      if (rows.length === 0) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    await db.destroy();
  }
}

/** True when every login of the server logs in and sees its shard databases. */
export async function serverUsable(settings: Settings, server: MariadbServer): Promise<boolean> {
  for (const login of server.logins) if (!(await loginWorks(settings, login))) return false;
  return true;
}

/** Creates the server's logins and shard databases as root (idempotent: IF NOT EXISTS throughout). */
export async function provisionAsRoot(root: Knex, server: MariadbServer): Promise<void> {
  for (const login of server.logins)
    for (const host of ['%', 'localhost', '127.0.0.1']) {
      await root.raw('CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ?', [login.user, host, login.password]);
      // Tests create uniquely named tidemark_* databases, so the grant covers the prefix.
      await root.raw('GRANT ALL PRIVILEGES ON `tidemark\\_%`.* TO ?@?', [login.user, host]);
      for (const d of login.databases) await root.raw('GRANT ALL PRIVILEGES ON ??.* TO ?@?', [d, login.user, host]);
      // The fault tests list and kill connections of their databases.
      await root
        .raw('GRANT PROCESS, CONNECTION ADMIN ON *.* TO ?@?', [login.user, host])
        .catch(() => root.raw('GRANT PROCESS, SUPER ON *.* TO ?@?', [login.user, host]));
    }
  for (const d of server.databases) await root.raw('CREATE DATABASE IF NOT EXISTS ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_bin', [d]);
}
