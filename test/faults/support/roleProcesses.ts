// Tidemark role processes under test: each is a real `node --import tsx src/main.ts --roles ...` child
// with its own environment, so a fault can SIGKILL it exactly as an operator's OOM killer would. Their
// JSON logs go to <stackDir>/logs/<name>.log; start-up is confirmed from the log line main.ts prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from '../../../src/devstack/stack';
import { waitFor } from '../../../src/shared/lifecycle';
import { freePortWith } from './privateEngines';

export type RoleName = 'gateway' | 'relay' | 'projector' | 'reconciler';

export interface RoleProcess {
  name: string;
  roles: RoleName[];
  pid: number;
  /** GraphQL endpoint (gateway role only). */
  url?: string;
  logFile: string;
  exited(): boolean;
  /** SIGKILL: no draining, no cleanup, leases and uncommitted offsets left behind. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the drain (SIGKILL after graceMs). */
  stop(graceMs?: number): Promise<void>;
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((done) => {
    const t = setTimeout(() => done(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      done(true);
    });
  });
}

// If the test process exits without cleaning up (a failed hook, a timeout), its role processes go too.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

export async function startRoleProcess(opts: { name: string; roles: RoleName[]; env: NodeJS.ProcessEnv; logDir: string; pidDir?: string; startTimeoutMs?: number }): Promise<RoleProcess> {
  mkdirSync(opts.logDir, { recursive: true });
  const logFile = join(opts.logDir, `${opts.name}.log`);
  // A restarted role appends to the same log: only lines written after this start count.
  const from = existsSync(logFile) ? statSync(logFile).size : 0;
  const logSince = () => readFileSync(logFile).subarray(from).toString('utf8');
  const out = createWriteStream(logFile, { flags: 'a' });
  const env: NodeJS.ProcessEnv = { ...opts.env, TIDEMARK_INSTANCE_ID: opts.name };
  let url: string | undefined;
  if (opts.roles.includes('gateway')) {
    const port = await freePortWith([], 40000, 49000);
    env.HTTP_PORT = String(port);
    env.HTTP_HOST = '127.0.0.1';
    url = `http://127.0.0.1:${port}/graphql`;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(repoRoot, 'src/main.ts'), '--roles', opts.roles.join(',')], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (opts.pidDir) {
    // Recorded so a later run can find and kill it if this test process dies without cleaning up.
    mkdirSync(opts.pidDir, { recursive: true });
    writeFileSync(join(opts.pidDir, `${opts.name}.pid`), String(child.pid));
  }
  child.stdout!.pipe(out, { end: false });
  child.stderr!.pipe(out, { end: false });
  child.once('exit', () => setTimeout(() => out.end(), 50));
  const readyLine = /Tidemark GraphQL ready|Tidemark running/;
  try {
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`${opts.name} exited with ${child.exitCode} during start-up`);
        return readyLine.test(logSince());
      },
      { timeoutMs: opts.startTimeoutMs ?? 90000, intervalMs: 200, what: `${opts.name} (${opts.roles.join(',')}) to start; log ${logFile}` },
    );
  } catch (err) {
    child.kill('SIGKILL');
    const tail = logSince().split('\n').slice(-15).join('\n');
    throw new Error(`${(err as Error).message}\n${tail}`);
  }
  return {
    name: opts.name,
    roles: opts.roles,
    pid: child.pid!,
    url,
    logFile,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async kill() {
      child.kill('SIGKILL');
      await waitExit(child, 10000);
    },
    async stop(graceMs = 20000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      if (!(await waitExit(child, graceMs))) {
        child.kill('SIGKILL');
        await waitExit(child, 5000);
      }
    },
  };
}
