// MariaDB/MySQL: reuse the server on MYSQL_HOST:MYSQL_PORT; if it is local and down, start it (and
// install mariadb-server first if absent). When the tidemark user cannot log in (or its shard databases
// are missing), provision it as root with rights on tidemark_* databases only, and one database per
// configured fitness shard.
import { existsSync } from 'node:fs';
import { mysqlSsl } from '../infra/tls';
import { waitFor } from '../shared/lifecycle';
import { probeKnex, type StackContext, type StackService } from './service';
import { aptInstall, listens, run, tcpAnswers, which } from './system';

const MARIADBD = '/usr/sbin/mariadbd';

export function mariadbService(ctx: StackContext): StackService {
  const s = ctx.settings;
  const isLocal = ['127.0.0.1', 'localhost'].includes(s.mysqlHost);
  const asUser = () =>
    probeKnex('mysql2', {
      host: s.mysqlHost,
      port: s.mysqlPort,
      user: s.mysqlUser,
      password: s.mysqlPassword,
      connectTimeout: 3000,
      ssl: mysqlSsl(s),
    });

  const service: StackService = {
    name: 'mysql',
    address: `${s.mysqlHost}:${s.mysqlPort}`,
    async check() {
      const db = asUser();
      try {
        await db.raw('SELECT 1');
        for (const d of s.fitnessShardDatabases)
          await db.raw('SELECT 1 FROM information_schema.schemata WHERE schema_name = ?', [d]).then(([rows]) => {
            if ((rows as unknown[]).length === 0) throw new Error(`database ${d} missing`);
          });
        return true;
      } catch {
        return false;
      } finally {
        await db.destroy();
      }
    },
    async up() {
      if (!(await listens(s.mysqlHost, s.mysqlPort))) {
        if (!isLocal)
          throw new Error(`MySQL at ${s.mysqlHost}:${s.mysqlPort} does not answer and is not local; start it or fix MYSQL_HOST/MYSQL_PORT`);
        if (!existsSync(MARIADBD) && !which('mariadbd')) aptInstall(['mariadb-server'], ctx.log);
        ctx.log('starting MariaDB');
        run('start-stop-daemon', ['--start', '--oknodo', '--background', '--exec', existsSync(MARIADBD) ? MARIADBD : which('mariadbd')!]);
        await waitFor(() => tcpAnswers(s.mysqlHost, s.mysqlPort), { timeoutMs: 60000, what: 'MariaDB to listen' });
      }
      if (!isLocal) return; // external servers are provisioned by their owners
      // Root logins only when needed: a server whose tidemark user already logs in and sees its
      // databases is left alone (it may not even allow root logins without a password).
      if (await service.check()) return;
      ctx.log(`provisioning user ${s.mysqlUser} and databases ${s.fitnessShardDatabases.join(', ')} as root`);
      const root = probeKnex('mysql2', {
        host: s.mysqlHost,
        port: s.mysqlPort,
        user: 'root',
        password: '',
        connectTimeout: 5000,
        ssl: mysqlSsl(s),
      });
      try {
        // A server that has just booted listens before it answers (seen on a fresh machine under load).
        await waitFor(() => root.raw('SELECT 1').then(() => true), {
          timeoutMs: 90000,
          intervalMs: 500,
          what: 'MariaDB to answer queries',
        });
        for (const host of ['%', 'localhost', '127.0.0.1']) {
          await root.raw('CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ?', [s.mysqlUser, host, s.mysqlPassword]);
          // Tests create uniquely named tidemark_* databases, so the grant covers the prefix.
          await root.raw('GRANT ALL PRIVILEGES ON `tidemark\\_%`.* TO ?@?', [s.mysqlUser, host]);
          await root
            .raw('GRANT PROCESS, CONNECTION ADMIN ON *.* TO ?@?', [s.mysqlUser, host])
            .catch(() => root.raw('GRANT PROCESS, SUPER ON *.* TO ?@?', [s.mysqlUser, host]));
        }
        for (const d of s.fitnessShardDatabases)
          await root.raw('CREATE DATABASE IF NOT EXISTS ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_bin', [d]);
      } finally {
        await root.destroy();
      }
    },
    async down() {
      return 'not-ours';
    },
  };
  return service;
}
