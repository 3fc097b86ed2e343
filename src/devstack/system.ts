// Small OS helpers for the local stack manager: probing ports, running commands, starting detached
// daemons with their output in a log file, and installing Debian packages when a binary is missing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname } from 'node:path';

export function tcpAnswers(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host, port });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

export function which(bin: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
  const p = r.stdout.trim();
  return r.status === 0 && p ? p : undefined;
}

export function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; log?: (l: string) => void } = {}): string {
  const r = spawnSync(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new Error(`${cmd} could not run: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${(r.stderr || r.stdout).trim().slice(-2000)}`);
  return r.stdout;
}

let aptUpdated = false;
/** Installs Debian packages (as root) when a needed binary is absent; a no-op when present. */
export function aptInstall(packages: string[], log: (l: string) => void): void {
  if (!which('apt-get')) throw new Error(`cannot install ${packages.join(' ')}: no apt-get on this machine; install it by hand`);
  if (!aptUpdated) {
    log('apt-get update');
    run('apt-get', ['update', '-q']);
    aptUpdated = true;
  }
  log(`apt-get install ${packages.join(' ')}`);
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
}

/** Starts a daemon detached from this process, its stdout/stderr appended to logFile; records its pid. */
export function spawnDetached(cmd: string, args: string[], opts: { cwd?: string; logFile: string; pidFile: string; env?: NodeJS.ProcessEnv }): number {
  mkdirSync(dirname(opts.logFile), { recursive: true });
  const fd = openSync(opts.logFile, 'a');
  const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, detached: true, stdio: ['ignore', fd, fd] });
  child.unref();
  if (!child.pid) throw new Error(`could not start ${cmd}`);
  writeFileSync(opts.pidFile, String(child.pid));
  return child.pid;
}

export function readPid(pidFile: string): number | undefined {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends SIGTERM, waits up to graceMs for exit, then SIGKILL; removes the pid file. */
export async function stopPid(pidFile: string, graceMs = 20000): Promise<boolean> {
  const pid = readPid(pidFile);
  if (!pid || !alive(pid)) {
    rmSync(pidFile, { force: true });
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(pidFile, { force: true });
  return true;
}
