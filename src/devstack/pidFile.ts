// The pid files of the daemons the stack manager starts, in one place: written when a daemon is
// spawned, read to tell a server we started (and that still runs) from one someone else runs on the
// same port, and used to stop it. Lock folders record their owner the same way (system.ts withLock).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

/** Records a process's pid in its pid file. */
export function writePid(pidFile: string, pid: number): void {
  writeFileSync(pidFile, String(pid));
}

/** The pid a pid file holds; undefined when there is no file or no usable pid in it. */
export function readPid(pidFile: string): number | undefined {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A killed server whose parent has not reaped it yet (a runner blocked in spawnSync) is a zombie:
  // signal 0 still reaches it, but it holds no port and no data folder.
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return true;
  }
}

/** The pid in a pid file when that process is alive (a daemon we started still runs); else undefined. */
export function livePid(pidFile: string): number | undefined {
  const pid = readPid(pidFile);
  return pid !== undefined && alive(pid) ? pid : undefined;
}

/** Sends SIGTERM, waits up to graceMs for exit, then SIGKILL; removes the pid file. */
export async function stopPid(pidFile: string, graceMs = 20000): Promise<boolean> {
  const pid = livePid(pidFile);
  if (!pid) {
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
