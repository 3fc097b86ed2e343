// The gateway: one HTTP server carries GraphQL over HTTP (Apollo) and WebSocket (graphql-ws) on the
// same path, plus /healthz (process alive), outside production /readyz and /metrics (in production they
// are on OPS_PORT only), the explorer and the console (/console). Every GraphQL request is admitted
// first (admission/): a token, the caller's rate limits and the document limits, before any parsing.
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
import { withRequestSignal } from '../shared/requestSignal';
import { admission, type AdmissionLimits } from './admission/admission';
import { costLimitPlugin, depthRule } from './limits';
import { requestIdFrom, requestIdMiddleware, requestIdPlugin, REQUEST_ID_HEADER } from './requestId';
import { startWebSocketServer } from './websocket';
import type { TokenVerifier } from '../auth/tokens';
import { explorerAssets, explorerHtml } from './explorer';
import { keepAliveLongerThanClients, opsRouter } from '../metrics/opsServer';
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
  /** AUTH_ROLES_CLAIM, told to the console so it reads a token's roles where the verifier does. */
  rolesClaim?: string;
  verifier: TokenVerifier;
  limits: { maxDepth: number; maxCost: number; maxPageSize: number };
  /** Token, rate and document limits checked before a request's work (src/graphql/admission). */
  admission: Omit<AdmissionLimits, 'bodyBytes'>;
  /** WebSocket connections per principal and operations per socket (0: unlimited). */
  webSocket: { maxConnectionsPerPrincipal: number; maxOperationsPerSocket: number };
  /** /readyz and /metrics on this port too (outside production); else /healthz only (the rest on OPS_PORT). */
  opsEndpoints: boolean;
  /** Browser origins allowed to call /graphql across origins (CORS); none when empty. */
  corsOrigins?: readonly string[];
}

/**
 * Largest GraphQL request body over HTTP, and largest WebSocket message: one limit for both transports.
 * 256 KiB: the largest real request (an operator's 1,000 ids, an order of ORDERS_MAX_ITEMS lines) is
 * tens of KiB, and a body announced larger is refused from its Content-Length before a byte is read.
 */
export const BODY_LIMIT_BYTES = 256 * 1024;

export interface Gateway {
  url: string;
  wsUrl: string;
  server: Server;
  stop(): Promise<void>;
}

export async function startGateway(o: GatewayOptions): Promise<Gateway> {
  const app = express();
  app.disable('x-powered-by');
  const httpServer = createServer(app);
  keepAliveLongerThanClients(httpServer);
  const duration = histogram(o.registry, {
    name: 'tidemark_graphql_request_duration_seconds',
    help: 'GraphQL request duration by operation (type and root field, e.g. "mutation placeOrder"; "other" when unparsed) and outcome.',
    labelNames: ['operation', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });

  const formatError = formatGraphQLError(o.logger, o.development);
  const admit = admission({
    verifier: o.verifier,
    logger: o.logger,
    registry: o.registry,
    limits: { ...o.admission, bodyBytes: BODY_LIMIT_BYTES },
  });
  const wsCleanup = startWebSocketServer({ ...o, server: httpServer, formatError, maxPayloadBytes: BODY_LIMIT_BYTES, admission: admit });

  const apollo = new ApolloServer<GatewayContext>({
    schema: o.schema,
    introspection: o.introspection,
    // The parser stops at the token limit (documents were already held to it by admission; WebSocket too).
    parseOptions: { maxTokens: o.admission.document.maxTokens },
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

  if (o.opsEndpoints) app.use(opsRouter({ readiness: o.services.readiness, registry: o.registry }));
  else app.get('/healthz', (_req, res) => void res.json({ status: 'alive' }));
  app.use(consoleRoutes({ development: o.development, bindHost: o.host, tokens: o.developmentTokens ?? [], rolesClaim: o.rolesClaim }));
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
    // Every operation needs a token: refused (and rate-limited) before the body is read or parsed.
    (req, res, next) => void admit.beforeBody(req, res, next).catch(next),
    express.json({ limit: BODY_LIMIT_BYTES }),
    (req, res, next) => admit.afterBody(req, res, next),
    // The operation runs on behalf of this request: when its client goes away before the answer is
    // written, the reads still running for it are cancelled (requestSignal.ts). Set after the body is
    // read: stream callbacks run in the socket's context, so anything set before would be lost here.
    (_req, res, next) => {
      const controller = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      withRequestSignal(controller.signal, next);
    },
    expressMiddleware(apollo, {
      context: async ({ res }): Promise<GatewayContext> => {
        const requestId = requestIdFrom(res);
        const auth = admit.authOf(res);
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
        ? `request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB`
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
