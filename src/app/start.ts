// The composition root: opens connections, migrates, starts the operations listener and the
// components of the selected roles. `stop()` first turns readiness to `draining` (a load balancer stops
// routing here), then stops the components in reverse order (the gateway's server first, so no new work
// arrives), draining each, and the operations listener last, so /readyz keeps answering 503 meanwhile.
import type { DevelopmentToken } from '../auth/developmentTokens';
import { hostname } from 'node:os';
import { settingsWarnings, type Settings } from '../config/settings';
import type { Gateway } from '../graphql/server';
import { fromKafkaClusterProbe } from '../infra/kafka/clusterProbe';
import { kafkaCircuit, type KafkaCircuit } from '../infra/kafka/kafkaCircuit';
import { createRegistry, gauge, type Registry } from '../metrics/registry';
import { fromKafkaStateSink } from '../publication/stateChanges/fromKafkaStateSink';
import type { StateChangeHub } from '../publication/stateChanges/stateChangeHub';
import type { StateChangeSink } from '../publication/stateChanges/stateChange';
import { reconciliationFrom } from './wiring/reconciliation';
import { schemaVersionGateFrom } from './wiring/schemaVersions';
import { exponentialBackoff } from '../shared/backoff';
import { builtOnce, type Stoppable } from '../shared/lifecycle';
import { createLogger, type Logger } from '../shared/logger';
import { migrateAll } from './migrateAll';
import { startOpsServer, type OpsServer } from '../metrics/opsServer';
import { readinessProbe } from './readiness';
import { openResources, type Resources } from './resources';
import { roleStarters } from './roleStarters';
import { startTracing } from './tracing';
import type { RoleDeps } from './roles';
import { packageVersion } from './packageVersion';

export interface Tidemark {
  gateway?: Gateway;
  /** The gateway's live state-change fan-out (gateway role). */
  stateChangeHub?: StateChangeHub;
  /** Where this process reports publication-state transitions. */
  stateChanges: StateChangeSink;
  /** /metrics, /healthz and /readyz on OPS_PORT, whatever the roles. */
  ops: OpsServer;
  kafkaCircuit: KafkaCircuit;
  resources: Resources;
  registry: Registry;
  stop(): Promise<void>;
}

/** The process's Kafka circuit: probes the cluster (metadata of the domain topics) with capped backoff. */
export function processKafkaCircuit(r: Resources, o: { logger: Logger; registry?: Registry }): KafkaCircuit {
  const s = r.settings;
  return kafkaCircuit({
    probe: fromKafkaClusterProbe(s, Object.values(r.topics.events), s.kafkaProbeTimeoutMs),
    backoff: exponentialBackoff({
      baseMs: s.relayOutageBackoffBaseMs,
      maxMs: s.relayOutageBackoffMaxMs,
      maxAttempts: Number.POSITIVE_INFINITY,
    }),
    logger: o.logger.child({ component: 'kafka-circuit' }),
    registry: o.registry,
  });
}

export async function startTidemark(
  settings: Settings,
  opts: { logger?: Logger; registry?: Registry; migrate?: boolean; developmentTokens?: readonly DevelopmentToken[] } = {},
): Promise<Tidemark> {
  const logger = opts.logger ?? createLogger(settings.logLevel);
  const registry = opts.registry ?? createRegistry();
  gauge(registry, {
    name: 'tidemark_build_info',
    help: 'Always 1: the running Tidemark version, Node.js version and roles of this process.',
    labelNames: ['version', 'node_version', 'roles'],
  }).set({ version: packageVersion(), node_version: process.versions.node, roles: settings.roles.join(',') }, 1);
  const instanceId = settings.instanceId ?? `${hostname()}-${process.pid}`;
  for (const w of settingsWarnings(settings)) logger.warn(w);
  // First in, last out: spans of every component's shutdown are still exported.
  const tracing = startTracing(settings, instanceId);
  const resources = openResources(settings);
  const started: Stoppable[] = [tracing];
  const readiness = readinessProbe(resources, { roles: settings.roles, registry });
  started.push({ stop: () => readiness.close() });
  const circuit = processKafkaCircuit(resources, { logger, registry });
  started.push(circuit);
  try {
    // First, so every process can be probed and scraped while it migrates and starts its roles.
    const ops = await startOpsServer({ host: settings.opsHost, port: settings.opsPort, readiness: () => readiness.check(), registry });
    started.push(ops);
    logger.info({ url: ops.url }, 'operations endpoints (/metrics, /healthz, /readyz) listening');
    if (opts.migrate ?? true) {
      const reports = await migrateAll(resources);
      logger.info({ applied: reports.filter((r) => r.applied.length) }, 'migrations up to date');
    }
    // Stopped after every role component (they may still report transitions while draining).
    const stateChanges = fromKafkaStateSink({
      kafka: resources.kafka,
      topic: resources.topics.publicationState,
      registry,
      logger,
      circuit,
    });
    started.push(stateChanges);
    // One per process, stopped after the first component that asked for it (gateway or reconciler).
    const schemaVersions = builtOnce(() => schemaVersionGateFrom(resources, { registry, logger }), started);
    const reconciliation = builtOnce(() => reconciliationFrom(resources, { registry, logger, schemaVersions: schemaVersions() }), started);
    const deps: RoleDeps = {
      resources,
      logger,
      registry,
      instanceId,
      stateChanges,
      kafkaCircuit: circuit,
      readiness,
      reconciliation,
      schemaVersions,
    };
    if (opts.developmentTokens) deps.developmentTokens = opts.developmentTokens;
    let gateway: Gateway | undefined;
    let stateChangeHub: StateChangeHub | undefined;
    for (const role of settings.roles)
      for (const start of roleStarters[role]) {
        const component = await start(deps);
        started.push(component);
        gateway ??= component.gateway;
        stateChangeHub ??= component.stateChangeHub;
      }
    readiness.started();
    let stopping: Promise<void> | undefined;
    return {
      gateway,
      stateChangeHub,
      stateChanges,
      ops,
      kafkaCircuit: circuit,
      resources,
      registry,
      stop() {
        stopping ??= (async () => {
          readiness.drain();
          for (const c of [...started].reverse()) await c.stop().catch((err) => logger.error({ err }, 'component failed to stop cleanly'));
          await resources.close();
        })();
        return stopping;
      },
    };
  } catch (err) {
    for (const c of [...started].reverse()) await c.stop().catch(() => undefined);
    await resources.close();
    throw err;
  }
}
