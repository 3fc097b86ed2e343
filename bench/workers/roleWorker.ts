// A relay or projector process for the benchmarks: opens its connections, reports `ready` over IPC,
// and starts the role's components only when the parent says `go`, so a timed drain measures the
// work and not the TypeScript start-up. It runs the roles' own starters (src/app/roleStarters.ts).
// SIGTERM drains and exits.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { RoleDeps } from '../../src/app/roles';
import { roleStarters } from '../../src/app/roleStarters';
import { readinessProbe } from '../../src/app/readiness';
import { openResources } from '../../src/app/resources';
import { processKafkaCircuit } from '../../src/app/start';
import { schemaVersionGateFrom } from '../../src/app/wiring/schemaVersions';
import { loadSettings } from '../../src/config/settings';
import { createRegistry } from '../../src/metrics/registry';
import { fromKafkaStateSink } from '../../src/publication/stateChanges/fromKafkaStateSink';
import { builtOnce, type Stoppable } from '../../src/shared/lifecycle';
import { createLogger } from '../../src/shared/logger';

type WorkerRole = 'relay' | 'projector';

function send(type: string): void {
  process.send?.({ type });
}

/** A CPU profile of the working phase only (from `go` to stop), when BENCH_CPU_PROFILE_DIR is set. */
function workProfiler(dir: string | undefined): { start(): void; stop(): Promise<void> } {
  if (!dir) return { start: () => undefined, stop: async () => undefined };
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
  let started: Promise<unknown> | undefined;
  return {
    start() {
      started = post('Profiler.enable')
        .then(() => post('Profiler.setSamplingInterval', { interval: 500 }))
        .then(() => post('Profiler.start'));
    },
    async stop() {
      if (!started) return;
      await started;
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      writeFileSync(join(dir, `worker-${process.pid}.cpuprofile`), JSON.stringify(profile));
    },
  };
}

async function main(): Promise<void> {
  const roles = (process.argv[2] ?? '').split(',').filter(Boolean) as WorkerRole[];
  const settings = loadSettings(process.env);
  const logger = createLogger(settings.logLevel);
  const registry = createRegistry(false);
  const resources = openResources(settings);
  const kafkaCircuit = processKafkaCircuit(resources, { logger, registry });
  const stateChanges = fromKafkaStateSink({
    kafka: resources.kafka,
    topic: resources.topics.publicationState,
    registry,
    logger,
    circuit: kafkaCircuit,
  });
  const instanceId = settings.instanceId ?? `bench-${hostname()}-${process.pid}`;
  const readiness = readinessProbe(resources, { roles });
  const reconciliation = () => {
    throw new Error('bench workers run no role that reconciles');
  };
  const started: Stoppable[] = [];
  // As in a deployed process: producers write what the projector group agrees on (docs/upgrades.md).
  const schemaVersions = builtOnce(() => schemaVersionGateFrom(resources, { registry, logger }), started);
  const deps: RoleDeps = { resources, logger, registry, instanceId, stateChanges, kafkaCircuit, readiness, reconciliation, schemaVersions };
  const profiler = workProfiler(process.env.BENCH_CPU_PROFILE_DIR);
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await profiler.stop().catch(() => undefined);
    for (const c of started.reverse()) await c.stop().catch(() => undefined);
    await stateChanges.stop().catch(() => undefined);
    await kafkaCircuit.stop();
    await readiness.close();
    await resources.close();
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  process.on('disconnect', () => void stop(0));
  process.on('message', (m) => {
    if ((m as { type?: string }).type !== 'go') return;
    profiler.start();
    void (async () => {
      for (const role of roles) {
        for (const start of roleStarters[role]) started.push(await start(deps));
      }
      // A projector is only working once it joined its consumer group (Kafka delays the first
      // join by group.initial.rebalance.delay.ms); timed runs start after that.
      for (const c of started)
        if (typeof (c as { joined?: unknown }).joined === 'function') await (c as unknown as { joined(): Promise<void> }).joined();
      send('started');
    })().catch((err: unknown) => {
      logger.error({ err }, 'bench worker failed to start its roles');
      void stop(1);
    });
  });
  // Open the pools before `go` so the first timed claim does not pay for connecting.
  await Promise.all([
    ...resources.mysql.shards.map((s) => s.db.raw('SELECT 1')),
    resources.pg.raw('SELECT 1'),
    resources.clickhouse.ping(),
  ]);
  send('ready');
}

main().catch((err: unknown) => {
  console.error('bench worker failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
