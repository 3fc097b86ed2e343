// The gateway: one HTTP server carries GraphQL over HTTP (Apollo) and WebSocket (graphql-ws) on the
// same path, plus /healthz (process alive), /readyz (every store answers), /metrics, the explorer and the
// console (/console).
// `stop()` stops accepting, drains in-flight requests and closes subscriptions.
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { GraphQLSchema } from 'graphql';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import cors from 'cors';
import type { Registry } from 'prom-client';
import type { Logger } from '../shared/logger';
import { histogram } from '../metrics/registry';
import type { GatewayContext, GatewayServices } from './context';
import { formatGraphQLError } from './errors';
import { authenticate } from './auth';
import { costLimitPlugin, depthRule } from './limits';
import { requestIdFrom, requestIdMiddleware, requestIdPlugin, REQUEST_ID_HEADER } from './requestId';
import { startWebSocketServer } from './websocket';
import type { TokenVerifier } from '../auth/tokens';
import { explorerAssets, explorerHtml } from './explorer';
import { keepAliveLongerThanClients, opsRouter } from '../app/opsServer';
import { consoleRoutes } from './console';
import { operationLabel, operationSpanPlugin, traceGraphQLRequests } from './requestTracing';
import type { DevelopmentToken } from '../auth/developmentTokens';

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
  /** Development mode only: tokens the console's sign-in page may offer on a loopback address. */
  developmentTokens?: readonly DevelopmentToken[];
  verifier: TokenVerifier;
  limits: { maxDepth: number; maxCost: number; maxPageSize: number };
  /** Browser origins allowed to call /graphql across origins (CORS); none when empty. */
  corsOrigins?: readonly string[];
}

/** Largest GraphQL request body over HTTP, and largest WebSocket message: one limit for both transports. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface Gateway {
  url: string;
  wsUrl: string;
  server: Server;
  stop(): Promise<void>;
}

export async function startGateway(o: GatewayOptions): Promise<Gateway> {
  const app = express();
  const httpServer = createServer(app);
  keepAliveLongerThanClients(httpServer);
  const duration = histogram(o.registry, {
    name: 'tidemark_graphql_request_duration_seconds',
    help: 'GraphQL request duration by operation (type and root field, e.g. "mutation placeOrder"; "other" when unparsed) and outcome.',
    labelNames: ['operation', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });

  const formatError = formatGraphQLError(o.logger, o.development);
  const wsCleanup = startWebSocketServer({ ...o, server: httpServer, formatError, maxPayloadBytes: BODY_LIMIT_BYTES });

  const apollo = new ApolloServer<GatewayContext>({
    schema: o.schema,
    introspection: o.introspection,
    includeStacktraceInErrorResponses: o.development,
    formatError,
    validationRules: [depthRule(o.limits.maxDepth)],
    plugins: [
      costLimitPlugin(o.schema, o.limits.maxCost, o.limits.maxPageSize),
      requestIdPlugin,
      operationSpanPlugin,
      ApolloServerPluginDrainHttpServer({ httpServer }),
      ApolloServerPluginLandingPageDisabled(),
      {
        async serverWillStart() {
          return {
            drainServer: async () => {
              await wsCleanup.dispose();
            },
          };
        },
      },
      {
        async requestDidStart() {
          const end = duration.startTimer();
          return {
            async willSendResponse(rc) {
              end({ operation: operationLabel(rc.operation, o.schema), outcome: rc.errors?.length ? 'error' : 'ok' });
            },
          };
        },
      },
    ],
  });
  await apollo.start();

  app.use(opsRouter({ readiness: o.services.readiness, registry: o.registry }));
  app.use(consoleRoutes({ development: o.development, bindHost: o.host, tokens: o.developmentTokens ?? [] }));
  if (o.explorer) {
    app.use(explorerAssets());
    app.get('/graphql', (req, res, next) => {
      if (req.accepts(['html', 'json']) === 'html' && !req.query.query) res.type('html').send(explorerHtml);
      else next();
    });
  }
  // CORS only for the listed origins: a preflight from any other origin gets no Access-Control-Allow-*
  // headers, so the browser refuses the call. The request id header is readable by the browser app.
  const allowed = new Set(o.corsOrigins ?? []);
  const corsPolicy = cors({
    origin: (origin, done) => done(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ['authorization', 'content-type', REQUEST_ID_HEADER, 'apollo-require-preflight', 'traceparent'],
    exposedHeaders: [REQUEST_ID_HEADER],
    maxAge: 600,
  });
  app.use(
    '/graphql',
    requestIdMiddleware(),
    corsPolicy,
    traceGraphQLRequests(),
    express.json({ limit: BODY_LIMIT_BYTES }),
    expressMiddleware(apollo, {
      context: async ({ req, res }): Promise<GatewayContext> => {
        const requestId = requestIdFrom(res);
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
    const message =
      status === 413
        ? 'request body is larger than 1 MB'
        : status >= 500
          ? 'internal error'
          : err.type === 'entity.parse.failed'
            ? 'request body is not valid JSON'
            : 'request body could not be read';
    res.status(status).json({ errors: [{ message, extensions: { code, requestId: requestIdFrom(res) } }] });
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
