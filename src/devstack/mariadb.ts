// MariaDB/MySQL the stack manager does not run itself: the machine's server on MYSQL_HOST:MYSQL_PORT
// (if it is local and down, start it, installing mariadb-server first if absent) and servers elsewhere
// that FITNESS_SHARDS names (only checked). When a login of a local one cannot log in (or its shard
// databases are missing), provision it as root. The servers the stack runs: mariadbStack.ts.
import { existsSync } from 'node:fs';
import { waitFor } from '../shared/lifecycle';
import { loginKnex, provisionAsRoot, serverUsable } from './mariadbProvision';
import { isLocalHost, type MariadbServer } from './mariadbServers';
import type { StackContext, StackService } from './service';
import { aptInstall, listens, run, tcpAnswers, which } from './system';

const MARIADBD = '/usr/sbin/mariadbd';

export function mariadbService(ctx: StackContext, server: MariadbServer): StackService {
  const s = ctx.settings;
  const { host, port } = server;
  const isLocal = isLocalHost(host);
  const fix = server.kind === 'machine' ? 'MYSQL_HOST/MYSQL_PORT' : 'FITNESS_SHARDS';

  const service: StackService = {
    name: server.name,
    address: `${host}:${port}`,
    check: () => serverUsable(s, server),
    async up() {
      if (!(await listens(host, port))) {
        if (!isLocal || server.kind !== 'machine')
          throw new Error(`MySQL at ${host}:${port} does not answer and is not the local machine's server; start it or fix ${fix}`);
        if (!existsSync(MARIADBD) && !which('mariadbd')) aptInstall(['mariadb-server'], ctx.log);
        ctx.log('starting MariaDB');
        run('start-stop-daemon', ['--start', '--oknodo', '--background', '--exec', existsSync(MARIADBD) ? MARIADBD : which('mariadbd')!]);
        await waitFor(() => tcpAnswers(host, port), { timeoutMs: 60000, what: 'MariaDB to listen' });
      }
      if (!isLocal) return; // external servers are provisioned by their owners
      // Root logins only when needed: a server whose logins already work and see their databases is
      // left alone (it may not even allow root logins without a password).
      if (await service.check()) return;
      ctx.log(
        `provisioning ${server.logins.map((l) => l.user).join(', ')} and databases ${server.databases.join(', ') || '(none)'} as root`,
      );
      const root = loginKnex(s, { host, port, user: 'root', password: '' });
      try {
        // A server that has just booted listens before it answers (seen on a fresh machine under load).
        await waitFor(() => root.raw('SELECT 1').then(() => true), {
          timeoutMs: 90000,
          intervalMs: 500,
          what: 'MariaDB to answer queries',
        });
        await provisionAsRoot(root, server);
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
