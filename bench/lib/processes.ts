// Child processes of a benchmark: the gateway (`node --import tsx src/main.ts`, exactly what users
// run) and role workers (bench/workers/roleWorker.ts: the relay or projector components of the same
// code, started on command so that start-up is not timed). The load generator stays in the bench
// process, so the gateway never shares an event loop with the load that measures it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { waitFor } from '../../src/shared/lifecycle';

export const repoRoot = join(__dirname, '..', '..');

// Children still running when the bench process exits (an error, Ctrl-C) are killed with it, so no
// gateway or worker outlives its run.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => process.exit(130));

function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface ChildOptions {
  env: NodeJS.ProcessEnv;
  /** Write a V8 CPU profile of the child into this folder (node --cpu-prof). */
  cpuProfDir?: string;
  name: string;
}

function nodeArgs(o: ChildOptions, script: string, args: string[] = []): string[] {
  const prof = o.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfDir}`, '--cpu-prof-interval=500'] : [];
  if (o.cpuProfDir) mkdirSync(o.cpuProfDir, { recursive: true });
  return [...prof, '--import', 'tsx', script, ...args];
}

function pipeTail(child: ChildProcess, name: string, tail: string[]): void {
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      tail.push(`[${name}] ${line.slice(0, 400)}`);
      if (tail.length > 40) tail.shift();
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
}

async function stopChild(child: ChildProcess, timeoutMs = 20000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

export interface GatewayProcess {
  url: string;
  wsUrl: string;
  pid: number;
  /** The last lines the child printed (for error notes). */
  tail: string[];
  stop(): Promise<void>;
}

/** Starts `src/main.ts` with the given environment and waits until /readyz says every store answers. */
export async function startGatewayProcess(o: ChildOptions & { roles?: string }): Promise<GatewayProcess> {
  const port = await freePort();
  const env = { ...o.env, HTTP_PORT: String(port), TIDEMARK_ROLES: o.roles ?? 'gateway' };
  const child = track(spawn(process.execPath, nodeArgs(o, 'src/main.ts'), { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const tail: string[] = [];
  pipeTail(child, o.name, tail);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}: ${tail.slice(-5).join(' | ')}`);
        const res = await fetch(`${base}/readyz`).catch(() => undefined);
        return res?.status === 200;
      },
      { timeoutMs: 90000, intervalMs: 250, what: `${o.name} readiness` },
    );
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return {
    url: `${base}/graphql`,
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
    pid: child.pid!,
    tail,
    async stop() {
      await stopChild(child);
    },
  };
}

export type WorkerRole = 'relay' | 'projector';

export interface RoleWorker {
  pid: number;
  tail: string[];
  /** Starts the role's components (the clock of a drain starts here). */
  go(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts bench/workers/roleWorker.ts; resolves once it has opened its connections (not yet working). */
export async function startRoleWorker(o: ChildOptions & { roles: WorkerRole[] }): Promise<RoleWorker> {
  // Workers profile their working phase themselves (from `go`), so start-up is not in the profile.
  if (o.cpuProfDir) mkdirSync(o.cpuProfDir, { recursive: true });
  const child = track(
    spawn(process.execPath, nodeArgs({ ...o, cpuProfDir: undefined }, join('bench', 'workers', 'roleWorker.ts'), [o.roles.join(',')]), {
      cwd: repoRoot,
      env: o.cpuProfDir ? { ...o.env, BENCH_CPU_PROFILE_DIR: o.cpuProfDir } : o.env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    }),
  );
  const tail: string[] = [];
  pipeTail(child, o.name, tail);
  const messages: string[] = [];
  const waiters: (() => void)[] = [];
  child.on('message', (m) => {
    messages.push(String((m as { type?: string }).type));
    for (const w of waiters.splice(0)) w();
  });
  const waitMessage = (type: string, timeoutMs: number) =>
    waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`${o.name} exited with ${child.exitCode}: ${tail.slice(-5).join(' | ')}`);
        return messages.includes(type);
      },
      { timeoutMs, intervalMs: 20, what: `${o.name} ${type}` },
    );
  try {
    await waitMessage('ready', 90000);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return {
    pid: child.pid!,
    tail,
    async go() {
      child.send({ type: 'go' });
      await waitMessage('started', 60000);
    },
    async stop() {
      await stopChild(child);
    },
  };
}

/**
 * The process listening on TCP `port` on this machine (from /proc/net/tcp{,6} and the processes' open
 * sockets), e.g. the ClickHouse server whose CPU a row reads; undefined when none or /proc is missing.
 */
export function listeningPid(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT; state 0A is LISTEN; field 9 is the socket's inode.
      if (f.length > 9 && f[3] === '0A' && parseInt(f[1]!.split(':')[1]!, 16) === port) inodes.add(`socket:[${f[9]}]`);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      try {
        if (inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return Number(pid);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
