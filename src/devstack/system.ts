// Small OS helpers for the local stack manager: probing ports, running commands, starting detached
// daemons with their output in a log file, installing Debian packages when a binary is missing,
// resolving a Java server's jars from Maven Central through a devstack pom, and a cross-process lock
// (pid files are pidFile.ts's).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { waitFor } from '../shared/lifecycle';
import { alive, readPid, writePid } from './pidFile';

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

/**
 * Whether a server listens, asked patiently: a refused connection answers at once, but on a saturated
 * machine (CI's last suites still closing their pools) a live local server can take seconds to accept,
 * and deciding "down" then would start a second server over the running one.
 */
export async function listens(host: string, port: number): Promise<boolean> {
  for (const timeoutMs of [1000, 3000, 8000]) {
    const r = await new Promise<'yes' | 'refused' | 'slow'>((resolve) => {
      const sock = createConnection({ host, port });
      const done = (v: 'yes' | 'refused' | 'slow') => {
        sock.destroy();
        resolve(v);
      };
      sock.setTimeout(timeoutMs, () => done('slow'));
      sock.once('connect', () => done('yes'));
      sock.once('error', (e: NodeJS.ErrnoException) => done(e.code === 'ECONNREFUSED' ? 'refused' : 'slow'));
    });
    if (r !== 'slow') return r === 'yes';
  }
  return false;
}

export function which(bin: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
  const p = r.stdout.trim();
  return r.status === 0 && p ? p : undefined;
}

/** The first of the names that is installed, also in /usr/sbin (not on every user's PATH); Debian ships mariadb-* and mysql* names. */
export function installedBinary(names: string[]): string | undefined {
  for (const n of names) {
    const p = existsSync(`/usr/sbin/${n}`) ? `/usr/sbin/${n}` : which(n);
    if (p) return p;
  }
  return undefined;
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
export function spawnDetached(
  cmd: string,
  args: string[],
  opts: { cwd?: string; logFile: string; pidFile: string; env?: NodeJS.ProcessEnv },
): number {
  mkdirSync(dirname(opts.logFile), { recursive: true });
  const fd = openSync(opts.logFile, 'a');
  const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, detached: true, stdio: ['ignore', fd, fd] });
  child.unref();
  if (!child.pid) throw new Error(`could not start ${cmd}`);
  writePid(opts.pidFile, child.pid);
  return child.pid;
}

/**
 * The runtime jars a devstack pom names, copied by Maven into `lib` (git-ignored) once: a `lib` that holds
 * `marker` (the server's own jar) is reused. Installs Java 17 and Maven from Debian when absent. The
 * release is passed as a -D property so it lives in one place, the TypeScript that runs it.
 */
export function mavenJars(
  o: { pom: string; lib: string; marker: string; properties: Record<string, string>; what: string },
  log: (l: string) => void,
): string {
  if (existsSync(o.lib) && readdirSync(o.lib).includes(o.marker)) return o.lib;
  if (!which('java')) aptInstall(['openjdk-17-jre-headless'], log);
  if (!which('mvn')) aptInstall(['maven'], log);
  log(`resolving ${o.what} from Maven Central`);
  const props = Object.entries(o.properties).map(([k, v]) => `-D${k}=${v}`);
  const copy = ['dependency:copy-dependencies', `-DoutputDirectory=${o.lib}`, '-DincludeScope=runtime'];
  run('mvn', ['-q', '-B', '-f', o.pom, ...props, ...copy]);
  return o.lib;
}

/**
 * Runs `fn` holding a lock folder (mkdir is atomic), so two processes bringing the same local engines up
 * at once (two jest workers) do not both start a server on one port. A lock whose owner died, or that
 * never got an owner within 10 s, is taken over.
 */
export async function withLock<T>(dir: string, fn: () => Promise<T>, timeoutMs = 300000): Promise<T> {
  const owner = join(dir, 'owner.pid');
  mkdirSync(dirname(dir), { recursive: true });
  const take = (): boolean => {
    try {
      mkdirSync(dir);
      writePid(owner, process.pid);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = readPid(owner);
      const st = statSync(dir, { throwIfNoEntry: false });
      const orphan = pid ? !alive(pid) : !!st && Date.now() - st.mtimeMs > 10000;
      if (orphan) rmSync(dir, { recursive: true, force: true });
      return false;
    }
  };
  await waitFor(take, { timeoutMs, intervalMs: 200, what: `the lock ${dir} (its owner.pid holds it)` });
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
