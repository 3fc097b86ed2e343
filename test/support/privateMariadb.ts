// A MariaDB server of one test's own, for a test that kills it. The shared servers (the machine's on
// MYSQL_PORT, the stack's second on 3307) serve every other suite and must never be killed, so the
// test runs the stack manager's own code for a stack-run server (mariadbStackService: mariadb-install-db
// once, `mariadbd --no-defaults` detached, its logins and shard databases provisioned as root over its
// socket) on a free port, in a folder of its own under .tidemark/private-mariadb/. kill() is SIGKILL by
// pid; start() is the stack manager's idempotent up again, so the server comes back on the same data
// folder and port as an operator's restart would; destroy() stops it and removes the folder. A folder
// whose test process died before destroy() (a killed jest) is swept by the next start.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from '../../src/config/paths';
import type { Settings } from '../../src/config/settings';
import { mariadbServers } from '../../src/devstack/mariadbServers';
import { mariadbStackHome, mariadbStackService } from '../../src/devstack/mariadbStack';
import type { StackContext } from '../../src/devstack/service';
import { alive, livePid, readPid } from '../../src/devstack/pidFile';
import { waitFor } from '../../src/shared/lifecycle';
import { freePortWith } from '../faults/support/privateEngines';

const ROOT = resolve(repoRoot, '.tidemark', 'private-mariadb');
const RUN_PREFIX = 'run-';

export interface PrivateMariadb {
  host: string;
  port: number;
  /** The server's pid while it runs (the one kill() signals), else undefined. */
  pid(): number | undefined;
  /** SIGKILL: no shutdown, no flush beyond what InnoDB already made durable; resolves once it is gone. */
  kill(): Promise<number>;
  /** Starts it again on the same data folder and port (InnoDB crash recovery first); resolves when it serves. */
  start(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL) and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * A free port for a private server: below the kernel's ephemeral range (32768 up), so no outgoing
 * connection takes it before the bind, and apart from the ranges of the TLS suites (12000-19000) and
 * the fault suite (20000-39000).
 */
export function freeMariadbPort(): Promise<number> {
  return freePortWith([], 11000, 12000);
}

/**
 * Starts the server on `port`, which the settings' FITNESS_SHARDS must name (127.0.0.1): the stack
 * manager provisions exactly the logins and shard databases the settings put there.
 */
export async function startPrivateMariadb(settings: Settings, port: number, log: (line: string) => void): Promise<PrivateMariadb> {
  sweepAbandoned(log);
  const server = mariadbServers(settings).find((s) => s.port === port && s.kind === 'stack');
  if (!server) throw new Error(`no FITNESS_SHARDS URL names the private MariaDB port ${port} on 127.0.0.1`);
  const dir = join(ROOT, `${RUN_PREFIX}${process.pid}-${port}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'owner.pid'), String(process.pid));
  const ctx: StackContext = { settings, dir, root: repoRoot, log };
  const service = mariadbStackService(ctx, server);
  // Where spawnDetached records the server's pid (mariadbd runs in the foreground: this is the server).
  const pidFile = join(mariadbStackHome(dir, port), 'mariadbd.pid');
  try {
    await service.up();
  } catch (err) {
    await service.down().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    host: server.host,
    port,
    pid: () => livePid(pidFile),
    async kill() {
      const pid = livePid(pidFile);
      if (!pid) throw new Error(`the private MariaDB on port ${port} is not running`);
      process.kill(pid, 'SIGKILL');
      await waitFor(() => !alive(pid), { timeoutMs: 15000, intervalMs: 20, what: `the private MariaDB (pid ${pid}) to die` });
      return pid;
    },
    start: () => service.up(),
    async destroy() {
      await service.down().catch(() => undefined);
      const pid = livePid(pidFile);
      if (pid) process.kill(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Kills the servers of runs whose owner died (only a process whose command line names their folder) and removes them. */
function sweepAbandoned(log: (line: string) => void): void {
  if (!existsSync(ROOT)) return;
  for (const name of readdirSync(ROOT).filter((n) => n.startsWith(RUN_PREFIX))) {
    const dir = join(ROOT, name);
    const owner = readPid(join(dir, 'owner.pid'));
    if (!owner || alive(owner)) continue; // being created right now, or its owner still runs
    log(`removing the private MariaDB of an abandoned run (${name})`);
    for (const home of readdirSync(dir).filter((n) => n.startsWith('mariadb-'))) {
      const pid = readPid(join(dir, home, 'mariadbd.pid'));
      const cmd = pid && existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8') : '';
      if (pid && cmd.includes(dir)) process.kill(pid, 'SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
