// The fault suite's own Kafka broker and ClickHouse server. The shared engines on the standard ports
// serve every other engineer's tests and must never be stopped, so the suite runs a second broker and
// a second ClickHouse through the same stack manager code (src/devstack), on free ports found at run
// time and in a stack folder of its own (.tidemark/faults/<run>). It can then stop and start them as
// often as a fault needs; `destroy()` stops both and removes their data. `kafkaNodes: 3` runs a private
// 3-node KRaft cluster instead of the single broker, whose nodes stop and start one at a time.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import type { Settings } from '../../../src/config/settings';
import { clickhouseService } from '../../../src/devstack/clickhouse';
import { kafkaService, type KafkaNodeControl, type KafkaStackService } from '../../../src/devstack/kafka';
import { KAFKA_LINES } from '../../../src/devstack/kafkaBroker';
import type { StackContext, StackService } from '../../../src/devstack/service';
import { repoRoot } from '../../../src/devstack/stack';
import { alive, livePid, readPid } from '../../../src/devstack/pidFile';
import { waitFor } from '../../../src/shared/lifecycle';
import { loadSettings } from '../../../src/config/settings';
import { postgresKnex } from '../../../src/infra/postgres/fromPostgres';
import { onShardServers, testShards } from '../../support/testShards';

const RUN_DIR_PREFIX = 'run-';
const FAULTS_DIR = resolve(repoRoot, '.tidemark', 'faults');

export interface PrivateEngines {
  kafkaBrokers: string[];
  clickhouseUrl: string;
  stackDir: string;
  kafka: KafkaStackService;
  clickhouse: StackService;
  /** Each Kafka node (one unless `kafkaNodes` asked for a cluster): stop(mode) and start() one of them. */
  kafkaNodes: KafkaNodeControl[];
  /** Stops an engine (every node of a Kafka cluster): 'graceful' is SIGTERM and a wait, 'kill' is SIGKILL. */
  stop(engine: 'kafka' | 'clickhouse', mode: 'graceful' | 'kill'): Promise<void>;
  /** Starts it again (the stack manager's idempotent up: same data folder, same ports). */
  start(engine: 'kafka' | 'clickhouse'): Promise<void>;
  /**
   * SIGSTOP: the engine hangs. The kernel still accepts TCP connections and takes their bytes, but
   * nothing answers: a hung process or a black-holing network, as clients see it. thaw() is SIGCONT.
   */
  freeze(engine: 'kafka' | 'clickhouse'): void;
  thaw(engine: 'kafka' | 'clickhouse'): void;
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

export interface PrivateEngineOptions {
  /** Kafka nodes to run (combined broker+controller each); 1, the default, is the single broker. */
  kafkaNodes?: number;
}

/** Free broker addresses for n Kafka nodes: each node needs its port and the next (its controller). */
export async function freeKafkaAddresses(n: number): Promise<string[]> {
  const first = await freePortWith(Array.from({ length: 2 * n - 1 }, (_, i) => i + 1));
  return Array.from({ length: n }, (_, i) => `127.0.0.1:${first + 2 * i}`);
}

/**
 * Settings of the private engines: the base settings with Kafka and ClickHouse replaced. The ClickHouse
 * TCP port is the HTTP port + 877 (src/devstack/clickhouse.ts), Kafka's controller the broker port + 1.
 */
export async function startPrivateEngines(
  base: Settings,
  runId: string,
  log: (l: string) => void,
  options: PrivateEngineOptions = {},
): Promise<{ engines: PrivateEngines; settings: Settings }> {
  const kafkaBrokers = await freeKafkaAddresses(options.kafkaNodes ?? 1);
  const chPort = await freePortWith([877], 30000, 39000);
  const stackDir = `.tidemark/faults/${RUN_DIR_PREFIX}${runId}`;
  const settings: Settings = { ...base, kafkaBrokers, clickhouseUrl: `http://127.0.0.1:${chPort}`, stackDir, stackManage: false };
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
  /** Live pids of an engine: ClickHouse's, or every Kafka node's (single broker or cluster layout). */
  function enginePids(engine: 'kafka' | 'clickhouse'): number[] {
    const folder = join(ctx.dir, engine === 'kafka' ? KAFKA_LINES[kafka.line].stackFolder : 'clickhouse');
    const files = [join(folder, `${engine}.pid`)];
    if (engine === 'kafka' && existsSync(folder))
      for (const n of readdirSync(folder).filter((f) => f.startsWith('node-'))) files.push(join(folder, n, 'kafka.pid'));
    return files.map((f) => readPid(f)).filter((pid): pid is number => !!pid && alive(pid));
  }
  return {
    settings,
    engines: {
      kafkaBrokers: settings.kafkaBrokers,
      clickhouseUrl: settings.clickhouseUrl,
      stackDir,
      kafka,
      clickhouse,
      kafkaNodes: kafka.nodes,
      async stop(engine, mode) {
        if (mode === 'graceful') return void (await (engine === 'kafka' ? kafka : clickhouse).down());
        if (engine === 'kafka') return void (await Promise.all(kafka.nodes.map((n) => n.stop('kill'))));
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
      freeze(engine) {
        const pids = enginePids(engine);
        if (!pids.length) throw new Error(`no running private ${engine}`);
        for (const pid of pids) process.kill(pid, 'SIGSTOP');
      },
      thaw(engine) {
        for (const pid of enginePids(engine)) process.kill(pid, 'SIGCONT');
      },
      async destroy() {
        for (const pid of [...enginePids('kafka'), ...enginePids('clickhouse')]) process.kill(pid, 'SIGCONT'); // a frozen engine cannot stop
        await Promise.allSettled([kafka.down(), clickhouse.down()]);
        rmSync(ctx.dir, { recursive: true, force: true });
      },
    },
  };
}

function killIfOurs(pidFile: string, mustContain: string): void {
  const pid = livePid(pidFile);
  if (!pid) return;
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
    for (const folder of Object.values(KAFKA_LINES).map((l) => join(dir, l.stackFolder))) {
      killIfOurs(join(folder, 'kafka.pid'), 'kafka.Kafka');
      const nodes = existsSync(folder) ? readdirSync(folder).filter((f) => f.startsWith('node-')) : [];
      for (const n of nodes) killIfOurs(join(folder, n, 'kafka.pid'), 'kafka.Kafka');
    }
    killIfOurs(join(dir, 'clickhouse', 'clickhouse.pid'), 'clickhouse');
    const s = loadSettings({ ...process.env, TIDEMARK_ENV: 'test' });
    // The run's shard databases were placed on the servers by testShards: dropped on each of them.
    await onShardServers({ ...s, ...testShards([`tidemark_f_${runId}_f0`, `tidemark_f_${runId}_f1`], s) }, 'DROP DATABASE IF EXISTS ??');
    const pg = postgresKnex(s, 'postgres', 1);
    try {
      await pg.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [`tidemark_f_${runId}_o`]);
    } finally {
      await pg.destroy();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
