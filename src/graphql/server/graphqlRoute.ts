// The /graphql route over HTTP, one middleware per step in the order a request meets them: request id,
// CORS, tracing, admission before and after the body is read, the request's cancellation signal, and
// Apollo with the request's context. Then the error answer for bodies that never reached Apollo.
import type { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import cors from 'cors';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from '../../shared/logger';
import { withRequestSignal } from '../../shared/requestSignal';
import type { Admission } from '../admission/admission';
import type { GatewayContext } from '../context';
import { requestIdFrom, requestIdMiddleware, REQUEST_ID_HEADER } from '../requestId';
import { traceGraphQLRequests } from '../requestTracing';
import { BODY_LIMIT_BYTES, type GatewayOptions } from './options';

/**
 * CORS only for the listed origins: a preflight from any other origin gets no Access-Control-Allow-*
 * headers, so the browser refuses the call. The request id header is readable by the browser app.
 */
function corsPolicy(origins: readonly string[] | undefined): RequestHandler {
  const allowed = new Set(origins ?? []);
  return cors({
    origin: (origin, done) => done(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ['authorization', 'content-type', REQUEST_ID_HEADER, 'apollo-require-preflight', 'traceparent'],
    exposedHeaders: [REQUEST_ID_HEADER],
    maxAge: 600,
  });
}

/**
 * The operation runs on behalf of this request: when its client goes away before the answer is
 * written, the reads still running for it are cancelled (requestSignal.ts). Set after the body is
 * read: stream callbacks run in the socket's context, so anything set before would be lost here.
 */
const cancelWhenClientLeaves: RequestHandler = (_req, res, next) => {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  withRequestSignal(controller.signal, next);
};

/** What resolvers see of the request: its id, the admitted caller, a logger and the services. */
function requestContext(o: GatewayOptions, admit: Admission) {
  return async ({ res }: { res: Response }): Promise<GatewayContext> => {
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
  };
}

export function mountGraphQLRoute(app: Express, o: GatewayOptions, admit: Admission, apollo: ApolloServer<GatewayContext>): void {
  app.use(
    '/graphql',
    requestIdMiddleware(),
    corsPolicy(o.corsOrigins),
    traceGraphQLRequests(),
    // Every operation needs a token: refused (and rate-limited) before the body is read or parsed.
    (req, res, next) => void admit.beforeBody(req, res, next).catch(next),
    express.json({ limit: BODY_LIMIT_BYTES }),
    (req, res, next) => admit.afterBody(req, res, next),
    cancelWhenClientLeaves,
    expressMiddleware(apollo, { context: requestContext(o, admit) }),
  );
}

/**
 * A body that is not JSON, or larger than the limit, fails before Apollo sees it; express would answer
 * with an HTML page (and a stack trace outside production). Answer like every other GraphQL error.
 */
export function bodyErrorHandler(logger: Logger) {
  return (err: { status?: unknown; type?: unknown }, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const status = typeof err.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status < 500 ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR';
    if (status >= 500) logger.error({ err }, 'request failed before GraphQL');
    const message =
      status === 413
        ? `request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB`
        : status >= 500
          ? 'internal error'
          : err.type === 'entity.parse.failed'
            ? 'request body is not valid JSON'
            : 'request body could not be read';
    res.status(status).json({ errors: [{ message, extensions: { code, requestId: requestIdFrom(res) } }] });
  };
}
