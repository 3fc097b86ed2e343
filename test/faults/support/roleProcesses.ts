// Tidemark role processes under test: each is a real `node --import tsx src/main.ts --roles ...` child
// with its own environment, so a fault can SIGKILL it exactly as an operator's OOM killer would. Their
// JSON logs go to <stackDir>/logs/<name>.log (and to a capturing run's log folder, logCapture.ts);
// start-up is confirmed from the log line main.ts prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { settingsTable, settingsToEnv, type Settings } from '../../../src/config/settings';
import { repoRoot } from '../../../src/devstack/stack';
import { waitFor } from '../../../src/shared/lifecycle';
import { captureFile } from '../../support/logCapture';
import { freePortWith } from './privateEngines';

export type RoleName = 'gateway' | 'relay' | 'projector' | 'reconciler';

/**
 * The environment of a role process: the machine's environment minus every Tidemark setting (so
 * nothing leaks in), then exactly `settings` rendered as the variables src/config/settings.ts reads.
 */
export function roleProcessEnv(settings: Settings): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const ours = new Set(Object.values(settingsTable).map((d) => d.env));
  for (const [k, v] of Object.entries(process.env)) if (!ours.has(k)) env[k] = v;
  return {
    ...env,
    ...settingsToEnv(settings),
    STACK_MANAGE: 'false',
    LOG_LEVEL: settings.logLevel === 'silent' ? 'info' : settings.logLevel,
  };
}

export interface RoleProcess {
  name: string;
  roles: RoleName[];
  pid: number;
  /** GraphQL endpoint (gateway role only). */
  url?: string;
  /** /metrics, /healthz and /readyz of this process (OPS_PORT), whatever its roles. */
  opsUrl: string;
  logFile: string;
  exited(): boolean;
  /** SIGKILL: no draining, no cleanup, leases and uncommitted offsets left behind. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the drain; SIGKILL after graceMs, and the result says so (never silently). */
  stop(graceMs?: number): Promise<StopResult>;
}

export interface StopResult {
  /** Exited by itself after SIGTERM, within the grace period, with exit code 0. */
  drained: boolean;
  /** SIGKILLed because it did not exit within the grace period. */
  forced: boolean;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
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

export async function startRoleProcess(opts: {
  name: string;
  roles: RoleName[];
  env: NodeJS.ProcessEnv;
  logDir: string;
  pidDir?: string;
  startTimeoutMs?: number;
}): Promise<RoleProcess> {
  mkdirSync(opts.logDir, { recursive: true });
  const logFile = join(opts.logDir, `${opts.name}.log`);
  // A restarted role appends to the same log: only lines written after this start count.
  const from = existsSync(logFile) ? statSync(logFile).size : 0;
  const logSince = () => readFileSync(logFile).subarray(from).toString('utf8');
  const out = createWriteStream(logFile, { flags: 'a' });
  const opsPort = await freePortWith([], 50000, 59000);
  const env: NodeJS.ProcessEnv = { ...opts.env, TIDEMARK_INSTANCE_ID: opts.name, OPS_HOST: '127.0.0.1', OPS_PORT: String(opsPort) };
  let url: string | undefined;
  if (opts.roles.includes('gateway')) {
    const port = await freePortWith([], 40000, 49000);
    env.HTTP_PORT = String(port);
    env.HTTP_HOST = '127.0.0.1';
    url = `http://127.0.0.1:${port}/graphql`;
  }
  // FAULTS_NODE_ARGS: extra Node.js flags for diagnosis, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.FAULTS_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', resolve(repoRoot, 'src/main.ts'), '--roles', opts.roles.join(',')],
    {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (opts.pidDir) {
    // Recorded so a later run can find and kill it if this test process dies without cleaning up.
    mkdirSync(opts.pidDir, { recursive: true });
    writeFileSync(join(opts.pidDir, `${opts.name}.pid`), String(child.pid));
  }
  // A capturing test run (logCapture.ts) also gets every line, for the leak check after jest.
  const captured = captureFile(`${opts.name}-${child.pid}`);
  for (const sink of captured === undefined ? [out] : [out, createWriteStream(captured, { flags: 'a' })]) {
    child.stdout!.pipe(sink, { end: false });
    child.stderr!.pipe(sink, { end: false });
    child.once('exit', () => setTimeout(() => sink.end(), 50));
  }
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
    opsUrl: `http://127.0.0.1:${opsPort}`,
    logFile,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async kill() {
      child.kill('SIGKILL');
      await waitExit(child, 10000);
    },
    async stop(graceMs = 20000) {
      const started = Date.now();
      const result = (forced: boolean): StopResult => ({
        drained: !forced && child.exitCode === 0,
        forced,
        exitCode: child.exitCode,
        signal: child.signalCode,
        ms: Date.now() - started,
      });
      if (child.exitCode !== null || child.signalCode !== null) return result(false);
      child.kill('SIGTERM');
      if (await waitExit(child, graceMs)) return result(false);
      child.kill('SIGKILL');
      await waitExit(child, 5000);
      return result(true);
    },
  };
}
