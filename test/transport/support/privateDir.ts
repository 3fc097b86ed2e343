// Folders of the secure-transport suites' private engines (<tmp>/tidemark-tls-<engine>-*), each with
// the pid of the test process that owns it. A test process killed before its teardown (a killed jest)
// leaves engines running; the next suite that starts one sweeps them: a folder whose owner is dead has
// its engine killed (only a process whose command line names that folder) and is removed. Also the
// engines' ports.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, readPid } from '../../../src/devstack/pidFile';
import { freePortWith } from '../../faults/support/privateEngines';

const PREFIX = 'tidemark-tls-';
// Where each engine keeps its pid: Kafka, MariaDB, ClickHouse (ours), PostgreSQL (its own, first line).
const PID_FILES = ['kafka.pid', 'mariadbd.pid', 'clickhouse.pid', join('data', 'postmaster.pid')];

export function privateDir(engine: string): string {
  sweepAbandoned();
  const dir = mkdtempSync(join(tmpdir(), `${PREFIX}${engine}-`));
  writeFileSync(join(dir, 'owner.pid'), String(process.pid));
  return dir;
}

function sweepAbandoned(): void {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(PREFIX))) {
    const dir = join(tmpdir(), name);
    const owner = readPid(join(dir, 'owner.pid'));
    if (!owner || alive(owner)) continue; // being written right now, or its owner is running
    for (const f of PID_FILES) {
      const file = join(dir, f);
      const pid = existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : 0;
      const cmd = pid > 0 && existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8') : '';
      if (cmd.includes(dir)) process.kill(pid, 'SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A free port p (and p + each offset) for a private engine: below the kernel's ephemeral range (32768 up),
 * so an outgoing connection cannot take it between this check and the engine's bind, and apart from the
 * fault suite's ranges (20000-39000).
 */
export function freeEnginePort(offsets: number[] = []): Promise<number> {
  return freePortWith(offsets, 12000, 19000);
}
