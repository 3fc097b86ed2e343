// The composition root: opens connections, migrates, and starts the components of the selected roles.
// `stop()` stops them in reverse order (servers first, so no new work arrives), draining each.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fromKafkaStateSink } from '../publication/stateChanges/fromKafkaStateSink';
import { startStateChangeHub, type StateChangeHub } from '../publication/stateChanges/stateChangeHub';
import type { StateChangeSink } from '../publication/stateChanges/stateChange';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Settings } from '../config/settings';
import { repoRoot } from '../devstack/stack';
import { gatewaySchema } from '../graphql/schema';
import { startGateway, type Gateway } from '../graphql/server';
import { createRegistry, type Registry } from '../metrics/registry';
import type { Stoppable } from '../shared/lifecycle';
import { createLogger, type Logger } from '../shared/logger';
import { migrateAll } from './migrateAll';
import { readinessProbe } from './readiness';
import { openResources, type Resources } from './resources';
import { roleStarters, type RoleDeps } from './roles';
import { ordersGatewayServices } from '../domains/orders/wiring';
import { publicationFor } from '../publication/strategy';
import { registerProjectionLagGauge } from '../metrics/projectionLagGauge';
import { publicationStores } from '../publication/kafkaFirst/stores';
import { fromReconciliationLedger } from '../publication/health/publicationHealth';
import { fitnessGatewayServices } from '../domains/fitness/wiring';
import { readModelsFrom } from '../projections/read/readModels';
import { reconciliationFrom } from '../reconciliation/wiring';
import { cachingVerifier } from '../auth/cachedVerifier';
import { systemClock } from '../shared/clock';
import { fromJwks, fromJwtSecret, type TokenVerifier } from '../auth/tokens';
import { rejectAllTokens } from '../graphql/auth';

export interface Tidemark {
  gateway?: Gateway;
  /** The gateway's live state-change fan-out (gateway role). */
  stateChangeHub?: StateChangeHub;
  /** Where this process reports publication-state transitions. */
  stateChanges: StateChangeSink;
  resources: Resources;
  registry: Registry;
  stop(): Promise<void>;
}

export function tokenVerifier(s: Settings): TokenVerifier {
  const o = { issuer: s.authIssuer, audience: s.authAudience };
  const cached = (v: TokenVerifier) => cachingVerifier(v, { maxEntries: s.authTokenCacheSize, ttlMs: s.authTokenCacheTtlMs, clock: systemClock });
  if (s.authJwksUrl) return cached(fromJwks(s.authJwksUrl, o));
  if (s.authJwtSecret) return cached(fromJwtSecret(s.authJwtSecret, o));
  return rejectAllTokens;
}

export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export async function startTidemark(settings: Settings, opts: { logger?: Logger; registry?: Registry; migrate?: boolean } = {}): Promise<Tidemark> {
  const logger = opts.logger ?? createLogger(settings.logLevel);
  const registry = opts.registry ?? createRegistry();
  const instanceId = settings.instanceId ?? `${hostname()}-${process.pid}`;
  const resources = openResources(settings);
  const started: Stoppable[] = [];
  const readiness = readinessProbe(resources);
  started.push({ stop: () => readiness.close() });
  try {
    if (opts.migrate ?? true) {
      const reports = await migrateAll(resources);
      logger.info({ applied: reports.filter((r) => r.applied.length) }, 'migrations up to date');
    }
    // Stopped after every role component (they may still report transitions while draining).
    const stateChanges = fromKafkaStateSink({ kafka: resources.kafka, topic: resources.topics.publicationState, registry, logger });
    started.push(stateChanges);
    const deps: RoleDeps = { resources, logger, registry, instanceId, stateChanges };
    for (const role of settings.roles) for (const start of roleStarters[role]) started.push(await start(deps));
    let gateway: Gateway | undefined;
    let stateChangeHub: StateChangeHub | undefined;
    if (settings.roles.includes('gateway')) {
      // Each gateway instance reads every state change with a group of its own (fan-out, not sharing).
      const hub = startStateChangeHub({ kafka: resources.kafka, topic: resources.topics.publicationState, groupId: `${settings.kafkaTopicPrefix}.gateway.${instanceId}.${randomUUID()}`, registry, logger, maxBufferedBytes: settings.subscriptionMaxBufferedBytes, maxQueued: settings.subscriptionMaxQueued });
      started.push(hub);
      stateChangeHub = hub;
      // Each domain's Publisher follows its configured strategy (outbox or kafka-first).
      const wiring = { resources, registry, logger, stateChanges };
      const ordersPublication = publicationFor(settings.ordersStrategy, wiring);
      started.push(ordersPublication);
      const orders = ordersGatewayServices({ ...wiring, publication: ordersPublication });
      started.push(orders);
      const fitnessPublication = publicationFor(settings.fitnessStrategy, wiring);
      started.push(fitnessPublication);
      const fitness = fitnessGatewayServices({ ...wiring, publication: fitnessPublication });
      // ClickHouse read models with freshness markers (its Kafka admin connection closes on stop).
      const readModels = readModelsFrom(resources, { registry, logger });
      registerProjectionLagGauge(registry, readModels.freshness);
      started.push({ stop: () => readModels.close() });
      // Operator reconciliation and repair (its repair producer and Kafka admin close on stop).
      const reconciliation = reconciliationFrom(resources, { registry, logger });
      started.push(reconciliation);
      gateway = await startGateway({
        schema: await gatewaySchema(),
        services: { readiness: () => readiness.check(), instanceId, roles: settings.roles, version: packageVersion(), stateChanges: hub, publicationHealth: { stores: publicationStores(resources), projectionLagMs: async (domain) => (await readModels.freshness.forScope({ domain })).lagMs, reconciliation: fromReconciliationLedger(resources.pg) }, orders: orders.orders, kafkaFirstPublications: orders.kafkaFirstPublications, fitness: fitness.fitness, outbox: fitness.outbox, readModels, reconciliation },
        logger,
        registry,
        host: settings.httpHost,
        port: settings.httpPort,
        introspection: settings.graphqlIntrospection,
        explorer: settings.graphqlExplorer,
        development: settings.env === 'development',
        verifier: tokenVerifier(settings),
        limits: { maxDepth: settings.graphqlMaxDepth, maxCost: settings.graphqlMaxCost, maxPageSize: settings.graphqlMaxPageSize },
      });
      started.push(gateway);
    }
    let stopping: Promise<void> | undefined;
    return {
      gateway,
      stateChangeHub,
      stateChanges,
      resources,
      registry,
      stop() {
        stopping ??= (async () => {
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
