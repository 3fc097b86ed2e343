// The fault suite's own Kafka broker and ClickHouse server. The shared engines on the standard ports
// serve every other engineer's tests and must never be stopped, so the suite runs a second broker and
// a second ClickHouse through the same stack manager code (src/devstack), on free ports found at run
// time and in a stack folder of its own (.tidemark/faults/<run>). It can then stop and start them as
// often as a fault needs; `destroy()` stops both and removes their data.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import type { Settings } from '../../../src/config/settings';
import { clickhouseService } from '../../../src/devstack/clickhouse';
import { kafkaService } from '../../../src/devstack/kafka';
import type { StackContext, StackService } from '../../../src/devstack/service';
import { repoRoot } from '../../../src/devstack/stack';
import { alive, readPid } from '../../../src/devstack/system';
import { waitFor } from '../../../src/shared/lifecycle';
import { loadSettings } from '../../../src/config/settings';
import { mysqlKnex } from '../../../src/infra/mysql/fromMysql';
import { postgresKnex } from '../../../src/infra/postgres/fromPostgres';

const RUN_DIR_PREFIX = 'run-';
const FAULTS_DIR = resolve(repoRoot, '.tidemark', 'faults');

export interface PrivateEngines {
  kafkaBrokers: string[];
  clickhouseUrl: string;
  stackDir: string;
  kafka: StackService;
  clickhouse: StackService;
  /** Stops an engine: 'graceful' is SIGTERM and a wait (the stack manager's down), 'kill' is SIGKILL. */
  stop(engine: 'kafka' | 'clickhouse', mode: 'graceful' | 'kill'): Promise<void>;
  /** Starts it again (the stack manager's idempotent up: same data folder, same ports). */
  start(engine: 'kafka' | 'clickhouse'): Promise<void>;
  destroy(): Promise<void>;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => done(true)));
  });
}

/** A port p such that every p + offset is free (Kafka needs its controller port, ClickHouse its TCP port). */
export async function freePortWith(offsets: number[], from = 20000, to = 29000): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const p = from + Math.floor(Math.random() * (to - from));
    const all = await Promise.all([p, ...offsets.map((o) => p + o)].map(portFree));
    if (all.every(Boolean)) return p;
  }
  throw new Error('no free port pair found for the private engines');
}

/**
 * Settings of the private engines: the base settings with Kafka and ClickHouse replaced. The ClickHouse
 * TCP port is the HTTP port + 877 (src/devstack/clickhouse.ts), Kafka's controller the broker port + 1.
 */
export async function startPrivateEngines(base: Settings, runId: string, log: (l: string) => void): Promise<{ engines: PrivateEngines; settings: Settings }> {
  const kafkaPort = await freePortWith([1]);
  const chPort = await freePortWith([877], 30000, 39000);
  const stackDir = `.tidemark/faults/${RUN_DIR_PREFIX}${runId}`;
  const settings: Settings = { ...base, kafkaBrokers: [`127.0.0.1:${kafkaPort}`], clickhouseUrl: `http://127.0.0.1:${chPort}`, stackDir, stackManage: false };
  const ctx: StackContext = { settings, dir: resolve(repoRoot, stackDir), root: repoRoot, log };
  mkdirSync(ctx.dir, { recursive: true });
  writeFileSync(join(ctx.dir, 'owner.pid'), String(process.pid));
  const kafka = kafkaService(ctx);
  const clickhouse = clickhouseService(ctx);
  try {
    await Promise.all([kafka.up(), clickhouse.up()]);
  } catch (err) {
    await Promise.allSettled([kafka.down(), clickhouse.down()]);
    throw err;
  }
  return {
    settings,
    engines: {
      kafkaBrokers: settings.kafkaBrokers,
      clickhouseUrl: settings.clickhouseUrl,
      stackDir,
      kafka,
      clickhouse,
      async stop(engine, mode) {
        if (mode === 'graceful') return void (await (engine === 'kafka' ? kafka : clickhouse).down());
        const pidFile = join(ctx.dir, engine, `${engine}.pid`);
        const pid = readPid(pidFile);
        if (!pid) throw new Error(`no pid file for the private ${engine}`);
        process.kill(pid, 'SIGKILL');
        await waitFor(() => !alive(pid), { timeoutMs: 15000, intervalMs: 50, what: `${engine} to die` });
        rmSync(pidFile, { force: true });
      },
      async start(engine) {
        await (engine === 'kafka' ? kafka : clickhouse).up();
      },
      async destroy() {
        await Promise.allSettled([kafka.down(), clickhouse.down()]);
        rmSync(ctx.dir, { recursive: true, force: true });
      },
    },
  };
}

function killIfOurs(pidFile: string, mustContain: string): void {
  const pid = readPid(pidFile);
  if (!pid || !alive(pid)) return;
  const cmd = existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8') : '';
  if (cmd.includes(mustContain)) process.kill(pid, 'SIGKILL');
}

/**
 * Cleans up after runs whose test process died without cleaning up (killed jest, a crashed worker):
 * a run folder whose owner.pid is no longer alive has its engines and role processes killed (by the
 * pids it recorded, checked against their command line) and its databases dropped. Runs whose owner
 * is alive (another suite running right now) are left alone.
 */
export async function sweepAbandonedRuns(log: (l: string) => void): Promise<void> {
  if (!existsSync(FAULTS_DIR)) return;
  for (const name of readdirSync(FAULTS_DIR).filter((n) => n.startsWith(RUN_DIR_PREFIX))) {
    const dir = join(FAULTS_DIR, name);
    const owner = readPid(join(dir, 'owner.pid'));
    if (owner && alive(owner)) continue;
    const runId = name.slice(RUN_DIR_PREFIX.length);
    log(`cleaning up abandoned fault run ${runId}`);
    const procs = join(dir, 'procs');
    if (existsSync(procs)) for (const f of readdirSync(procs)) killIfOurs(join(procs, f), 'src/main.ts');
    killIfOurs(join(dir, 'kafka', 'kafka.pid'), 'kafka.Kafka');
    killIfOurs(join(dir, 'clickhouse', 'clickhouse.pid'), 'clickhouse');
    const s = loadSettings({ ...process.env, TIDEMARK_ENV: 'test' });
    const my = mysqlKnex(s, undefined, 1);
    const pg = postgresKnex(s, 'postgres', 1);
    try {
      for (const d of [`tidemark_f_${runId}_f0`, `tidemark_f_${runId}_f1`]) await my.raw('DROP DATABASE IF EXISTS ??', [d]);
      await pg.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [`tidemark_f_${runId}_o`]);
    } finally {
      await Promise.allSettled([my.destroy(), pg.destroy()]);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
