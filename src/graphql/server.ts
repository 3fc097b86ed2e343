// The gateway: one HTTP server carries GraphQL over HTTP (Apollo) and WebSocket (graphql-ws) on the
// same path, plus /healthz (process alive), /readyz (every store answers), /metrics and the explorer.
// `stop()` stops accepting, drains in-flight requests and closes subscriptions.
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import type { Logger } from '../shared/logger';
import { histogram } from '../metrics/registry';
import type { GatewayContext, GatewayServices } from './context';
import { formatGraphQLError } from './errors';
import { authenticate } from './auth';
import { costLimitPlugin, depthRule, validateWithLimits } from './limits';
import type { TokenVerifier } from '../auth/tokens';
import { explorerAssets, explorerHtml } from './explorer';

export interface GatewayOptions {
  schema: GraphQLSchema;
  services: GatewayServices;
  logger: Logger;
  registry: Registry;
  host: string;
  port: number;
  introspection: boolean;
  explorer: boolean;
  development: boolean;
  verifier: TokenVerifier;
  limits: { maxDepth: number; maxCost: number; maxPageSize: number };
}

export interface Gateway {
  url: string;
  wsUrl: string;
  server: Server;
  stop(): Promise<void>;
}

export async function startGateway(o: GatewayOptions): Promise<Gateway> {
  const app = express();
  const httpServer = createServer(app);
  const wss = new WebSocketServer({ server: httpServer, path: '/graphql' });
  const duration = histogram(o.registry, {
    name: 'tidemark_graphql_request_duration_seconds',
    help: 'GraphQL request duration by operation name and outcome.',
    labelNames: ['operation', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });

  // WebSocket clients authenticate once, in connection_init; a connection without a valid token is
  // refused (graphql-ws closes it with 4403 Forbidden), so no subscription runs unauthenticated.
  const formatError = formatGraphQLError(o.logger, o.development);
  const wsCleanup = useServer<Record<string, unknown>, { auth?: GatewayContext['auth'] }>(
    {
      schema: o.schema,
      validate: validateWithLimits(o.limits.maxDepth),
      // Subscription errors are formatted exactly like HTTP ones (stable codes, no raw text).
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => formatError(e.toJSON(), e)) as never } : result,
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => formatError(e.toJSON(), e)) as never,
      onConnect: async (ctx) => {
        const auth = await authenticate(o.verifier, ctx.connectionParams?.authorization);
        if (!auth.principal) return false;
        ctx.extra.auth = auth;
        return true;
      },
      context: (ctx): GatewayContext => ({
        requestId: randomUUID(),
        auth: ctx.extra.auth ?? {},
        logger: o.logger,
        services: o.services,
        connection: { bufferedBytes: () => ctx.extra.socket.bufferedAmount, close: (code, reason) => ctx.extra.socket.close(code, reason) },
      }),
    },
    wss,
  );

  const apollo = new ApolloServer<GatewayContext>({
    schema: o.schema,
    introspection: o.introspection,
    includeStacktraceInErrorResponses: o.development,
    formatError,
    validationRules: [depthRule(o.limits.maxDepth)],
    plugins: [
      costLimitPlugin(o.schema, o.limits.maxCost, o.limits.maxPageSize),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      ApolloServerPluginLandingPageDisabled(),
      {
        async serverWillStart() {
          return { drainServer: async () => { await wsCleanup.dispose(); } };
        },
      },
      {
        async requestDidStart() {
          const end = duration.startTimer();
          return {
            async willSendResponse(rc) {
              end({ operation: rc.operationName ?? 'anonymous', outcome: rc.errors?.length ? 'error' : 'ok' });
            },
          };
        },
      },
    ],
  });
  await apollo.start();

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'alive' });
  });
  app.get('/readyz', async (_req, res) => {
    const r = await o.services.readiness();
    const failing = Object.entries(r.stores).filter(([, up]) => !up).map(([s]) => s);
    res.status(r.ready ? 200 : 503).json({ status: r.ready ? 'ready' : 'not-ready', stores: r.stores, failing });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(o.registry.contentType).send(await o.registry.metrics());
  });
  if (o.explorer) {
    app.use(explorerAssets());
    app.get('/graphql', (req, res, next) => {
      if (req.accepts(['html', 'json']) === 'html' && !req.query.query) res.type('html').send(explorerHtml);
      else next();
    });
  }
  app.use(
    '/graphql',
    express.json({ limit: '1mb' }),
    expressMiddleware(apollo, {
      context: async ({ req }): Promise<GatewayContext> => {
        const requestId = (typeof req.headers['x-request-id'] === 'string' && req.headers['x-request-id'].slice(0, 64)) || randomUUID();
        const auth = await authenticate(o.verifier, req.headers.authorization);
        // The request's child logger is made on first use: most requests never log, and a pino child
        // per request was a visible share of the gateway's profile.
        let logger: Logger | undefined;
        return {
          requestId,
          auth,
          get logger() {
            return (logger ??= o.logger.child({ requestId, subject: auth.principal?.subject }));
          },
          services: o.services,
        };
      },
    }),
  );

  // A body that is not JSON, or larger than the limit, fails before Apollo sees it; express would answer
  // with an HTML page (and a stack trace outside production). Answer like every other GraphQL error.
  app.use((err: { status?: unknown; type?: unknown }, _req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (res.headersSent) return next(err);
    const status = typeof err.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status < 500 ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR';
    if (status >= 500) o.logger.error({ err }, 'request failed before GraphQL');
    const message = status === 413 ? 'request body is larger than 1 MB' : status >= 500 ? 'internal error' : err.type === 'entity.parse.failed' ? 'request body is not valid JSON' : 'request body could not be read';
    res.status(status).json({ errors: [{ message, extensions: { code } }] });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(o.port, o.host, () => resolve());
  });
  const addr = httpServer.address() as AddressInfo;
  const base = `${addr.address}:${addr.port}`;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://${base}/graphql`,
    wsUrl: `ws://${base}/graphql`,
    server: httpServer,
    stop() {
      stopped ??= apollo.stop();
      return stopped;
    },
  };
}
