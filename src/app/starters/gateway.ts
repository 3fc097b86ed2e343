// The gateway role, built like every other role: the live state-change fan-out, each domain's
// publication (by its configured strategy, sharing the process's Kafka circuit), the services the
// GraphQL schema calls, and the HTTP/WebSocket server. `stop()` (from start.ts) stops them in reverse.
import { randomUUID } from 'node:crypto';
import { cachingVerifier } from '../../auth/cachedVerifier';
import { mintDevelopmentTokens } from '../../auth/developmentTokens';
import { jwtOptionsOf } from '../../auth/jwtOptions';
import { fromJwks, fromJwtSecret, type TokenVerifier } from '../../auth/tokens';
import type { Settings } from '../../config/settings';
import { fitnessGatewayServices } from '../wiring/fitness';
import { ordersGatewayServices } from '../wiring/orders';
import type { AdmissionLimits } from '../../graphql/admission/admission';
import { rejectAllTokens } from '../../graphql/auth';
import { gatewaySchema } from '../../graphql/schema';
import { startGateway } from '../../graphql/server';
import { registerProjectionLagGauge } from '../../metrics/projectionLagGauge';
import { readModelsFrom } from '../wiring/readModels';
import { consistencyFrom } from '../wiring/consistency';
import { erasureServiceFrom } from '../wiring/erasure';
import { fromReconciliationLedger } from '../../reconciliation/ledger/ledgerHealth';
import { startStateChangeHub } from '../../publication/stateChanges/stateChangeHub';
import { domainStores } from '../wiring/domainStores';
import { migrationLists } from '../wiring/migrationLists';
import { domainGatewayServices, domainResolvers } from '../wiring/domainGateways';
import { publicationFor } from '../wiring/publication';
import { systemClock } from '../../shared/clock';
import type { Stoppable } from '../../shared/lifecycle';
import { migrationStatus } from '../../infra/migrationStatus';
import { packageVersion } from '../packageVersion';
import type { RoleStarter } from '../roles';
import { domainModule, domainModules } from '../../domains/registry';
import { strategyOf } from '../../domains/contract/domainModule';
import type { Domain } from '../../shared/domain';

export function tokenVerifier(s: Settings): TokenVerifier {
  const o = jwtOptionsOf(s);
  const cached = (v: TokenVerifier) =>
    cachingVerifier(v, { maxEntries: s.authTokenCacheSize, ttlMs: s.authTokenCacheTtlMs, clock: systemClock });
  if (s.authJwksUrl)
    return cached(
      fromJwks(s.authJwksUrl, o, {
        timeoutMs: s.authJwksTimeoutMs,
        cacheMaxAgeMs: s.authJwksCacheMaxAgeMs,
        cooldownMs: s.authJwksCooldownMs,
      }),
    );
  if (s.authJwtSecret) return cached(fromJwtSecret(s.authJwtSecret, o));
  return rejectAllTokens;
}

/** The admission limits the settings describe (docs/operators.md, "Deploying safely"). */
export function admissionLimits(s: Settings): Omit<AdmissionLimits, 'bodyBytes'> {
  return {
    principal: { perSecond: s.rateLimitPerSecond, burst: s.rateLimitBurst, concurrent: s.rateLimitConcurrent },
    service: { perSecond: s.rateLimitServicePerSecond, burst: s.rateLimitServiceBurst, concurrent: s.rateLimitServiceConcurrent },
    anonymous: { perSecond: s.rateLimitAnonymousPerSecond, burst: s.rateLimitAnonymousBurst },
    document: {
      maxBytes: s.graphqlMaxDocumentBytes,
      maxTokens: s.graphqlMaxTokens,
      maxRepeatedSelections: s.graphqlMaxRepeatedSelections,
    },
  };
}

export const startGatewayRole: RoleStarter = async ({
  resources,
  logger,
  registry,
  instanceId,
  stateChanges,
  kafkaCircuit,
  readiness,
  reconciliation: processReconciliation,
  schemaVersions: processSchemaVersions,
  developmentTokens,
}) => {
  const settings = resources.settings;
  const started: Stoppable[] = [];
  const stop = async () => {
    for (const c of [...started].reverse())
      await c.stop().catch((err) => logger.error({ err }, 'gateway component failed to stop cleanly'));
  };
  try {
    // Each gateway instance reads every state change with a group of its own (fan-out, not sharing).
    const hub = startStateChangeHub({
      kafka: resources.kafka,
      topic: resources.topics.publicationState,
      groupId: `${settings.kafkaTopicPrefix}.gateway.${instanceId}.${randomUUID()}`,
      registry,
      logger,
      maxBufferedBytes: settings.subscriptionMaxBufferedBytes,
      maxQueued: settings.subscriptionMaxQueued,
    });
    started.push(hub);
    // Each domain's Publisher follows its configured strategy (outbox or kafka-first).
    const wiring = { resources, registry, logger, stateChanges, kafkaCircuit };
    const ordersPublication = publicationFor(strategyOf(settings, domainModule('orders')), wiring);
    started.push(ordersPublication);
    // Producers write the schema version every live projector member reads (docs/upgrades.md).
    const schemaVersions = processSchemaVersions();
    const orders = ordersGatewayServices({ ...wiring, publication: ordersPublication, schemaVersions });
    started.push(orders);
    const fitnessPublication = publicationFor(strategyOf(settings, domainModule('fitness')), wiring);
    started.push(fitnessPublication);
    const fitness = fitnessGatewayServices({ ...wiring, publication: fitnessPublication, schemaVersions });
    const domains = domainGatewayServices(wiring);
    started.push(domains);
    // ClickHouse read models with freshness markers (its Kafka admin connection closes on stop).
    const readModels = readModelsFrom(resources, { registry, logger });
    registerProjectionLagGauge(
      registry,
      readModels.freshness,
      domainModules().map((m) => m.name),
    );
    started.push({ stop: () => readModels.close() });
    // Read your own writes: tokens for mutations, reads and writeVisible waiting on this hub's notices.
    const consistency = consistencyFrom(resources, { registry, hub });
    started.push(consistency);
    // Operator reconciliation and repair: the process's one service (the composition root stops it).
    const reconciliation = processReconciliation();
    const publicationHealth = {
      stores: domainStores(resources),
      projectionLagMs: async (domain: Domain) => (await readModels.freshness.forScope({ domain })).lagMs,
      reconciliation: fromReconciliationLedger(resources.pg),
      eventSchema: (domain: Domain) => schemaVersions.view(domain),
    };
    const gateway = await startGateway({
      schema: await gatewaySchema(domainResolvers()),
      services: {
        readiness: () => readiness.check(),
        instanceId,
        roles: settings.roles,
        version: packageVersion(),
        stateChanges: hub,
        publicationHealth,
        orders: orders.orders,
        kafkaFirstPublications: orders.kafkaFirstPublications,
        fitness: fitness.fitness,
        outbox: fitness.outbox,
        readModels,
        consistency: consistency.service,
        reconciliation,
        erasure: erasureServiceFrom(resources, { logger }),
        migrationStatus: () => migrationStatus(resources, migrationLists()),
        domains: domains.services,
      },
      logger,
      registry,
      host: settings.httpHost,
      port: settings.httpPort,
      introspection: settings.graphqlIntrospection,
      explorer: settings.graphqlExplorer,
      development: settings.env === 'development',
      // The tokens main.ts printed, when it minted them: the console offers the very same ones.
      developmentTokens: settings.consoleDevTokens ? (developmentTokens ?? (await mintDevelopmentTokens(settings))) : [],
      rolesClaim: settings.authRolesClaim,
      verifier: tokenVerifier(settings),
      limits: { maxDepth: settings.graphqlMaxDepth, maxCost: settings.graphqlMaxCost, maxPageSize: settings.graphqlMaxPageSize },
      admission: admissionLimits(settings),
      webSocket: {
        maxConnectionsPerPrincipal: settings.wsMaxConnectionsPerPrincipal,
        maxOperationsPerSocket: settings.wsMaxOperationsPerSocket,
      },
      opsEndpoints: settings.env !== 'production',
      corsOrigins: settings.corsOrigins,
    });
    started.push(gateway);
    return { gateway, stateChangeHub: hub, stop };
  } catch (err) {
    await stop();
    throw err;
  }
};
