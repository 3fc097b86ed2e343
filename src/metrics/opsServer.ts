// The operations endpoints every process serves, whatever its roles: /healthz (the process is alive),
// /readyz (it can do its job: src/app/readiness.ts; 503 naming the engines that are missing, or while draining)
// and /metrics (Prometheus). The gateway mounts the same router on its own port; every process also
// serves it on OPS_PORT, so relays and projectors scaled out into their own processes can be scraped
// and probed like the gateway.
import express, { Router } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/** The engines a process may depend on. */
export type Dependency = 'mysql' | 'postgres' | 'kafka' | 'clickhouse';

/** What /readyz answers (and the gateway's `health` query shows); judged by src/app/readiness.ts. */
export interface Readiness {
  /** True when the process can do its job: 200 on /readyz. */
  ready: boolean;
  status: 'starting' | 'ready' | 'degraded' | 'not-ready' | 'draining';
  stores: Record<Dependency, boolean>;
  /** Required engines that are down (the process cannot do its job). */
  failing: Dependency[];
  /** Engines that are down but that this process can work without for a while. */
  degraded: Dependency[];
  /** Fitness shards (by index) that do not answer; MySQL is in `degraded` while some still do. */
  shardsDown: number[];
}

export function opsRouter(o: { readiness: () => Promise<Readiness>; registry: Registry }): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'alive' });
  });
  router.get('/readyz', async (_req, res) => {
    const r = await o.readiness();
    res.status(r.ready ? 200 : 503).json(r);
  });
  router.get('/metrics', async (_req, res) => {
    res.type(o.registry.contentType).send(await o.registry.metrics());
  });
  return router;
}

export interface OpsServer {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

/**
 * Keep-alive longer than any client's idle timeout (undici 4 s, nginx and cloud load balancers 60 s):
 * the client then always closes an idle connection first, so a request sent on a connection the server
 * is closing at that very moment ("other side closed") cannot happen, even when a busy event loop fires
 * the server's timer late.
 */
export function keepAliveLongerThanClients(server: Server): void {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}

export async function startOpsServer(o: {
  host: string;
  port: number;
  readiness: () => Promise<Readiness>;
  registry: Registry;
}): Promise<OpsServer> {
  const app = express();
  app.disable('x-powered-by');
  app.use(opsRouter(o));
  const server = createServer(app);
  keepAliveLongerThanClients(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${addr.address}:${addr.port}`,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
