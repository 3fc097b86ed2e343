// GraphQL over WebSocket (graphql-ws) on the gateway's HTTP server, held to the same rules as HTTP:
// - messages are capped at the HTTP body limit (ws closes a larger one with 1009);
// - operations pass the same depth and cost limits, and their errors carry the same stable codes;
// - clients authenticate once, in connection_init (graphql-ws closes a refused one with 4403), and the
//   connection is closed with TOKEN_EXPIRED_CLOSE_CODE when that token expires, so no subscription
//   outlives the credentials that opened it (the client reconnects with a fresh token);
// - the upgrade request's x-request-id (or a generated one) identifies the connection in logs and errors;
// - a principal holds at most WS_MAX_CONNECTIONS_PER_PRINCIPAL sockets (more are closed with 4429), a
//   socket runs at most WS_MAX_OPERATIONS_PER_SOCKET operations, each taken from the principal's request
//   rate, and each document meets the admission document limits before it is validated.
import { GraphQLError, parse, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { authenticate } from './auth';
import type { Authentication, GatewayContext, GatewayServices } from './context';
import { costTooHigh, operationCost, validateWithLimits } from './limits';
import { REQUEST_ID_HEADER, requestIdOf, withRequestId } from './requestId';
import { tokenExpiresAtMs } from '../auth/tokenExpiry';
import { bearer, type TokenVerifier } from '../auth/tokens';
import type { Logger } from '../shared/logger';
import type { Admission } from './admission/admission';
import { concurrencyLimiter } from './admission/rateLimits';

/** Close code of a connection whose token expired (graphql-ws's 4403 Forbidden, with its own reason). */
export const TOKEN_EXPIRED_CLOSE_CODE = 4403;
/** Close code of a connection over its principal's WebSocket limit (HTTP's 429, in graphql-ws's 4xxx range). */
export const TOO_MANY_CONNECTIONS_CLOSE_CODE = 4429;
// A trusted service's connections are multiplied by this (it carries many users' subscriptions).
const SERVICE_CONNECTION_FACTOR = 16;
// setTimeout holds at most 2^31-1 ms (24.8 days); longer waits are re-armed in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface WebSocketOptions {
  schema: GraphQLSchema;
  server: Server;
  services: GatewayServices;
  logger: Logger;
  verifier: TokenVerifier;
  limits: { maxDepth: number; maxCost: number; maxPageSize: number };
  maxPayloadBytes: number;
  admission: Admission;
  webSocket: { maxConnectionsPerPrincipal: number; maxOperationsPerSocket: number };
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
}

type Extra = {
  auth?: Authentication;
  requestId?: string;
  /** Ids of the operations running on this socket. */
  operations?: Set<string>;
};

/** When a verified token expires (its `exp`, authentic once verified); undefined without one. */
function expiryOf(authorization: unknown): number | undefined {
  const token = bearer(authorization);
  return token ? tokenExpiresAtMs(token) : undefined;
}

/** Closes `close` at `at` (epoch ms) unless the returned function is called first. */
function closeAt(at: number, close: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = at - Date.now();
    if (left <= 0) return close();
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
  };
  arm();
  return () => clearTimeout(timer);
}

const coded = (errors: readonly GraphQLError[], code: string) =>
  errors.map((e) =>
    e.extensions.code
      ? e
      : new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, extensions: { ...e.extensions, code } }),
  );

export function startWebSocketServer(o: WebSocketOptions): { dispose(): void | Promise<void> } {
  const wss = new WebSocketServer({ server: o.server, path: '/graphql', maxPayload: o.maxPayloadBytes });
  const validate = validateWithLimits(o.limits.maxDepth);
  const connections = concurrencyLimiter();
  const rateLimited = (message: string) => [new GraphQLError(message, { extensions: { code: 'RATE_LIMITED', retriable: true } })];
  const format = (errors: readonly GraphQLError[], requestId: string | undefined) =>
    withRequestId(errors.map((e) => o.formatError(e.toJSON(), e)) as { extensions?: Record<string, unknown> }[], requestId ?? '') as never;
  const server = useServer<Record<string, unknown>, Extra>(
    {
      schema: o.schema,
      onNext: (ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: format(result.errors, ctx.extra.requestId) } : result,
      onError: (ctx, _id, _payload, errors) => format(errors, ctx.extra.requestId),
      onConnect: async (ctx) => {
        ctx.extra.requestId = requestIdOf(ctx.extra.request.headers[REQUEST_ID_HEADER]);
        const authorization = ctx.connectionParams?.authorization;
        const auth = await authenticate(o.verifier, authorization);
        if (!auth.principal) return false;
        const p = auth.principal;
        const max = o.webSocket.maxConnectionsPerPrincipal * (p.roles.includes('service') ? SERVICE_CONNECTION_FACTOR : 1);
        const release = connections.acquire(p.subject, max);
        if (!release) {
          o.admission.refused('ws_connections', p.subject);
          ctx.extra.socket.close(TOO_MANY_CONNECTIONS_CLOSE_CODE, 'too many connections');
          return false;
        }
        ctx.extra.socket.once('close', release);
        ctx.extra.auth = auth;
        ctx.extra.operations = new Set();
        const expiresAt = expiryOf(authorization);
        if (expiresAt !== undefined) {
          const socket = ctx.extra.socket;
          const cancel = closeAt(expiresAt, () => socket.close(TOKEN_EXPIRED_CLOSE_CODE, 'token expired'));
          socket.once('close', cancel);
        }
        return true;
      },
      // Parse, validate (depth included) and cost here, as Apollo does for HTTP; errors get HTTP's codes.
      onSubscribe: (ctx, id, payload) => {
        const p = ctx.extra.auth?.principal;
        const running = ctx.extra.operations ?? new Set<string>();
        const maxOps = o.webSocket.maxOperationsPerSocket;
        if (maxOps > 0 && running.size >= maxOps) {
          o.admission.refused('ws_operations', p?.subject ?? 'unknown');
          return rateLimited(`too many operations on this connection (at most ${maxOps})`);
        }
        if (p && o.admission.takeRate(p)) {
          o.admission.refused('rate', p.subject);
          return rateLimited('too many requests: slow down');
        }
        const refusal = o.admission.document(payload.query);
        if (refusal) {
          const { http: _http, ...extensions } = refusal.extensions as Record<string, unknown>;
          return [new GraphQLError(refusal.message, { extensions })];
        }
        let document: DocumentNode;
        try {
          document = parse(payload.query); // size and tokens already held to the admission limits
        } catch (err) {
          return coded([err instanceof GraphQLError ? err : new GraphQLError('the operation could not be parsed')], 'GRAPHQL_PARSE_FAILED');
        }
        const invalid = validate(o.schema, document);
        if (invalid.length) return coded(invalid, 'GRAPHQL_VALIDATION_FAILED');
        try {
          const cost = operationCost(o.schema, document, payload.operationName, payload.variables, o.limits.maxPageSize);
          const refused = cost === undefined ? undefined : costTooHigh(cost, o.limits.maxCost);
          if (refused) return [refused];
        } catch (err) {
          return [err as GraphQLError];
        }
        running.add(id);
        return { schema: o.schema, document, operationName: payload.operationName, variableValues: payload.variables };
      },
      onComplete: (ctx, id) => {
        ctx.extra.operations?.delete(id);
      },
      context: (ctx): GatewayContext => ({
        requestId: ctx.extra.requestId ?? requestIdOf(undefined),
        auth: ctx.extra.auth ?? {},
        logger: o.logger,
        services: o.services,
        connection: { bufferedBytes: () => ctx.extra.socket.bufferedAmount, close: (code, reason) => ctx.extra.socket.close(code, reason) },
      }),
    },
    wss,
  );
  // graphql-ws prints every socket error with its stack (console.error), and any client can cause one
  // (a message over maxPayload, a bad frame): ws has already closed such a connection with the right
  // code (1009, 1002), so log one line instead.
  wss.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', (err: Error & { code?: string }) => {
      o.logger.warn({ code: err.code, reason: err.message }, 'WebSocket connection closed on a protocol error');
      if (socket.readyState === socket.OPEN) socket.close(1011, 'Internal server error');
    });
  });
  return server;
}
