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

/** Where one stack-run server lives and listens, and who runs it: what every step below works on. */
interface StackServer {
  ctx: StackContext;
  server: MariadbServer;
  home: string;
  data: string;
  pidFile: string;
  errorLog: string;
  socket: string;
  osUser: string;
}

function stackServer(ctx: StackContext, server: MariadbServer): StackServer {
  const home = mariadbStackHome(ctx.dir, server.port);
  const data = join(home, 'data');
  return {
    ctx,
    server,
    home,
    data,
    pidFile: join(home, 'mariadbd.pid'),
    errorLog: join(home, 'error.log'),
    socket: socketPath(home),
    osUser: userInfo().username,
  };
}

/** The pid of the server when this stack manager started it and it still runs. */
const ours = (m: StackServer) => livePid(m.pidFile);

/** Initialises the data folder once; into a temporary folder first, so an interrupted run is redone, never half-used. */
function initialise(m: StackServer): void {
  const { data, osUser } = m;
  if (existsSync(join(data, 'mysql'))) return;
  const tmp = `${data}.init`;
  rmSync(tmp, { recursive: true, force: true });
  m.ctx.log(`initialising MariaDB data of ${m.server.name} in ${data}`);
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

function spawnServer(m: StackServer): number {
  const { home, server, osUser } = m;
  if (!installedBinary(SERVER) || !installedBinary(INSTALL_DB)) aptInstall(['mariadb-server'], m.ctx.log);
  mkdirSync(home, { recursive: true });
  initialise(m);
  m.ctx.log(`starting MariaDB ${server.name} on ${server.host}:${server.port}`);
  // The machine server's character set and limits (Debian's my.cnf), which --no-defaults does not read.
  return spawnDetached(
    installedBinary(SERVER)!,
    [
      '--no-defaults',
      ...(osUser === 'root' ? ['--user=root'] : []),
      `--datadir=${m.data}`,
      `--port=${server.port}`,
      `--bind-address=${server.host}`,
      `--socket=${m.socket}`,
      `--pid-file=${join(home, 'server.pid')}`,
      `--log-error=${m.errorLog}`,
      '--skip-name-resolve',
      '--character-set-server=utf8mb4',
      '--collation-server=utf8mb4_general_ci',
      '--max-connections=151',
    ],
    { cwd: home, logFile: join(home, 'stdout.log'), pidFile: m.pidFile },
  );
}

/** Starts ours unless it runs, and waits until it listens (or fails when it exits first). */
async function start(m: StackServer): Promise<void> {
  const { host, port, name } = m.server;
  const pid = ours(m) ?? spawnServer(m);
  const state = await waitFor(async () => (!alive(pid) ? 'exited' : (await tcpAnswers(host, port)) ? 'listening' : false), {
    timeoutMs: 90000,
    intervalMs: 200,
    what: `MariaDB ${name} on ${host}:${port} (log: ${m.errorLog})`,
  });
  if (state === 'exited') throw new Error(`MariaDB ${name} on ${host}:${port} exited while starting; see ${m.errorLog}`);
}

/** Creates the server's logins and databases as root, over its socket; only on a server we started. */
async function provision(m: StackServer): Promise<void> {
  const { server } = m;
  if (!ours(m))
    throw new Error(
      `MariaDB at ${server.host}:${server.port} answers but was not started from ${m.home}, and ${server.logins.map((l) => l.user).join(', ')} ` +
        'cannot log in or see their databases: stop that server (npm run stack -- down in the checkout that started it), ' +
        'or pick another port (STACK_MYSQL_SECOND_PORT, FITNESS_SHARDS).',
    );
  m.ctx.log(
    `provisioning ${server.logins.map((l) => l.user).join(', ')} and databases ${server.databases.join(', ') || '(none)'} on ${server.name}`,
  );
  const root = probeKnex('mysql2', { socketPath: m.socket, user: m.osUser, connectTimeout: 5000 });
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

export function mariadbStackService(ctx: StackContext, server: MariadbServer): StackService {
  const { host, port } = server;
  const m = stackServer(ctx, server);
  const service: StackService = {
    name: server.name,
    address: `${host}:${port}`,
    check: () => serverUsable(ctx.settings, server),
    async up() {
      if (await service.check()) return;
      // Two processes bringing the stack up at once must not both initialise or start this server.
      await withLock(`${m.home}.lock`, async () => {
        if (!(await listens(host, port))) await start(m);
        if (!(await service.check())) await provision(m);
      });
    },
    async down() {
      if (!ours(m)) return (await tcpAnswers(host, port)) ? 'not-ours' : 'not-running';
      await stopPid(m.pidFile, 60000);
      return 'stopped';
    },
  };
  return service;
}
