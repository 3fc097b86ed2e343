// The gateway: one HTTP server carries GraphQL over HTTP (Apollo) and WebSocket (graphql-ws) on the
// same path, plus /healthz (process alive), outside production /readyz and /metrics (in production they
// are on OPS_PORT only), the explorer and the console (/console). Every GraphQL request is admitted
// first (admission/): a token, the caller's rate limits and the document limits, before any parsing.
// `stop()` stops accepting, drains in-flight requests and closes subscriptions.
// This file composes the steps, each in src/graphql/server/: the order of the steps is the order the
// metrics are registered and the routes and middleware are mounted in.
import express from 'express';
import { createServer } from 'node:http';
import { keepAliveLongerThanClients } from '../metrics/opsServer';
import { admission } from './admission/admission';
import { formatGraphQLError } from './errors';
import { startWebSocketServer } from './websocket';
import { requestDurationHistogram, startApolloServer } from './server/apollo';
import { bodyErrorHandler, mountGraphQLRoute } from './server/graphqlRoute';
import { listenGateway } from './server/listen';
import { BODY_LIMIT_BYTES, type Gateway, type GatewayOptions } from './server/options';
import { mountPages } from './server/pages';

export { BODY_LIMIT_BYTES, type Gateway, type GatewayOptions } from './server/options';

export async function startGateway(o: GatewayOptions): Promise<Gateway> {
  const app = express();
  app.disable('x-powered-by');
  const httpServer = createServer(app);
  keepAliveLongerThanClients(httpServer);
  const duration = requestDurationHistogram(o.registry);

  const formatError = formatGraphQLError(o.logger, o.development);
  const admit = admission({
    verifier: o.verifier,
    logger: o.logger,
    registry: o.registry,
    limits: { ...o.admission, bodyBytes: BODY_LIMIT_BYTES },
  });
  const webSockets = startWebSocketServer({ ...o, server: httpServer, formatError, maxPayloadBytes: BODY_LIMIT_BYTES, admission: admit });
  const apollo = await startApolloServer(o, { httpServer, formatError, webSockets, duration });

  mountPages(app, o);
  mountGraphQLRoute(app, o, admit, apollo);
  app.use(bodyErrorHandler(o.logger));

  return listenGateway(httpServer, o, apollo);
}
