// A MariaDB server the stack manager runs itself, beside the machine's: the second local server
// (STACK_MYSQL_SECOND_PORT, 3307) and any other local port a FITNESS_SHARDS URL names. Each has its own
// folder <STACK_DIR>/mariadb-<port> (data, socket, pid and error log), is initialised once with
// mariadb-install-db and runs detached as `mariadbd --no-defaults`, so the machine's server (its
// my.cnf, its data, its port) is never touched. Root logs in over the server's own socket only
// (unix_socket authentication of the user running the stack); the shards' logins use TCP.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../shared/lifecycle';
import { provisionAsRoot, serverUsable } from './mariadbProvision';
import type { MariadbServer } from './mariadbServers';
import { probeKnex, type StackContext, type StackService } from './service';
import { alive, livePid, stopPid } from './pidFile';
import { aptInstall, installedBinary, listens, run, spawnDetached, tcpAnswers, withLock } from './system';

const SERVER = ['mariadbd', 'mysqld'];
const INSTALL_DB = ['mariadb-install-db', 'mysql_install_db'];

/** The folder of a stack-run server: everything of it lives there. */
export function mariadbStackHome(stackDir: string, port: number): string {
  return join(stackDir, `mariadb-${port}`);
}

// A Unix socket path is limited to 107 bytes; a deep checkout gets a short, stable one in the temp folder.
function socketPath(home: string): string {
  const own = join(home, 'mariadbd.sock');
  return own.length <= 100 ? own : join(tmpdir(), `tidemark-mariadb-${createHash('sha1').update(home).digest('hex').slice(0, 12)}.sock`);
}

export function mariadbStackService(ctx: StackContext, server: MariadbServer): StackService {
  const { host, port } = server;
  const home = mariadbStackHome(ctx.dir, port);
  const data = join(home, 'data');
  const pidFile = join(home, 'mariadbd.pid');
  const errorLog = join(home, 'error.log');
  const socket = socketPath(home);
  const osUser = userInfo().username;
  const ours = () => livePid(pidFile);

  /** Initialises the data folder once; into a temporary folder first, so an interrupted run is redone, never half-used. */
  function initialise(): void {
    if (existsSync(join(data, 'mysql'))) return;
    const tmp = `${data}.init`;
    rmSync(tmp, { recursive: true, force: true });
    ctx.log(`initialising MariaDB data of ${server.name} in ${data}`);
    run(installedBinary(INSTALL_DB)!, [
      '--no-defaults',
      `--datadir=${tmp}`,
      '--auth-root-authentication-method=socket',
      `--auth-root-socket-user=${osUser}`,
      '--skip-test-db',
      ...(osUser === 'root' ? ['--user=root'] : []),
    ]);
    renameSync(tmp, data);
  }

  function spawnServer(): number {
    if (!installedBinary(SERVER) || !installedBinary(INSTALL_DB)) aptInstall(['mariadb-server'], ctx.log);
    mkdirSync(home, { recursive: true });
    initialise();
    ctx.log(`starting MariaDB ${server.name} on ${host}:${port}`);
    // The machine server's character set and limits (Debian's my.cnf), which --no-defaults does not read.
    return spawnDetached(
      installedBinary(SERVER)!,
      [
        '--no-defaults',
        ...(osUser === 'root' ? ['--user=root'] : []),
        `--datadir=${data}`,
        `--port=${port}`,
        `--bind-address=${host}`,
        `--socket=${socket}`,
        `--pid-file=${join(home, 'server.pid')}`,
        `--log-error=${errorLog}`,
        '--skip-name-resolve',
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_general_ci',
        '--max-connections=151',
      ],
      { cwd: home, logFile: join(home, 'stdout.log'), pidFile },
    );
  }

  async function start(): Promise<void> {
    const pid = ours() ?? spawnServer();
    const state = await waitFor(async () => (!alive(pid) ? 'exited' : (await tcpAnswers(host, port)) ? 'listening' : false), {
      timeoutMs: 90000,
      intervalMs: 200,
      what: `MariaDB ${server.name} on ${host}:${port} (log: ${errorLog})`,
    });
    if (state === 'exited') throw new Error(`MariaDB ${server.name} on ${host}:${port} exited while starting; see ${errorLog}`);
  }

  async function provision(): Promise<void> {
    if (!ours())
      throw new Error(
        `MariaDB at ${host}:${port} answers but was not started from ${home}, and ${server.logins.map((l) => l.user).join(', ')} ` +
          'cannot log in or see their databases: stop that server (npm run stack -- down in the checkout that started it), ' +
          'or pick another port (STACK_MYSQL_SECOND_PORT, FITNESS_SHARDS).',
      );
    ctx.log(
      `provisioning ${server.logins.map((l) => l.user).join(', ')} and databases ${server.databases.join(', ') || '(none)'} on ${server.name}`,
    );
    const root = probeKnex('mysql2', { socketPath: socket, user: osUser, connectTimeout: 5000 });
    try {
      await waitFor(() => root.raw('SELECT 1').then(() => true), {
        timeoutMs: 60000,
        intervalMs: 300,
        what: `MariaDB ${server.name} to answer`,
      });
      await provisionAsRoot(root, server);
    } finally {
      await root.destroy();
    }
  }

  const service: StackService = {
    name: server.name,
    address: `${host}:${port}`,
    check: () => serverUsable(ctx.settings, server),
    async up() {
      if (await service.check()) return;
      // Two processes bringing the stack up at once must not both initialise or start this server.
      await withLock(`${home}.lock`, async () => {
        if (!(await listens(host, port))) await start();
        if (!(await service.check())) await provision();
      });
    },
    async down() {
      if (!ours()) return (await tcpAnswers(host, port)) ? 'not-ours' : 'not-running';
      await stopPid(pidFile, 60000);
      return 'stopped';
    },
  };
  return service;
}
