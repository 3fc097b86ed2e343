// The composition root: opens connections, migrates, and starts the components of the selected roles.
// `stop()` stops them in reverse order (servers first, so no new work arrives), draining each.
import { readFileSync } from 'node:fs';
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
import { fromJwks, fromJwtSecret, type TokenVerifier } from '../auth/tokens';
import { rejectAllTokens } from '../graphql/auth';

export interface Tidemark {
  gateway?: Gateway;
  resources: Resources;
  registry: Registry;
  stop(): Promise<void>;
}

export function tokenVerifier(s: Settings): TokenVerifier {
  const o = { issuer: s.authIssuer, audience: s.authAudience };
  if (s.authJwksUrl) return fromJwks(s.authJwksUrl, o);
  if (s.authJwtSecret) return fromJwtSecret(s.authJwtSecret, o);
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
    const deps: RoleDeps = { resources, logger, registry, instanceId };
    for (const role of settings.roles) for (const start of roleStarters[role]) started.push(await start(deps));
    let gateway: Gateway | undefined;
    if (settings.roles.includes('gateway')) {
      gateway = await startGateway({
        schema: await gatewaySchema(),
        services: { readiness: () => readiness.check(), instanceId, roles: settings.roles, version: packageVersion() },
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
