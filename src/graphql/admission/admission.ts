// Admission of GraphQL requests, before any of their work is done. Over HTTP, in this order: the token
// is verified from the headers before the body is read (a request without a valid one is refused, and
// counted against its client address, before its document is even parsed); a Content-Length over the
// body limit is refused without reading the body; the principal's request
// rate and requests in progress are checked (429 with Retry-After); then, once the body is read, the
// document's size, tokens and repeated selections (documentLimits.ts) before Apollo parses and
// validates it. The WebSocket server (websocket.ts) asks the same questions per connection and
// operation. Every refusal is counted (tidemark_requests_refused_total) and logged, at most once per
// caller and reason every 10 s, so a flood does not become a log flood.
import type { NextFunction, Request, Response } from 'express';
import type { GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { Registry } from 'prom-client';
import type { Principal } from '../../auth/principal';
import type { TokenVerifier } from '../../auth/tokens';
import { counter } from '../../metrics/registry';
import type { Logger } from '../../shared/logger';
import { authenticate } from '../auth';
import type { Authentication } from '../context';
import { requestIdFrom } from '../requestId';
import { cachedDocumentCheck, type DocumentLimits } from './documentLimits';
import { concurrencyLimiter, tokenBuckets, type RateLimit, type Refusal } from './rateLimits';

export interface PrincipalLimits extends RateLimit {
  /** Requests in progress at once (0: unlimited). */
  concurrent: number;
}

export interface AdmissionLimits {
  principal: PrincipalLimits;
  /** Trusted service subjects (AUTH_SERVICE_SUBJECTS), instead of `principal`. */
  service: PrincipalLimits;
  /** Requests without a valid token, per client address. */
  anonymous: RateLimit;
  document: DocumentLimits;
  /** Largest request body; a larger Content-Length is refused (413) before the body is read. */
  bodyBytes: number;
}

export type RefusalReason =
  'rate' | 'concurrency' | 'anonymous_rate' | 'unauthenticated' | 'body' | 'document' | 'ws_connections' | 'ws_operations';

export interface Admission {
  /** Express middleware: authentication and rate limits, before the body is read. */
  beforeBody(req: Request, res: Response, next: NextFunction): Promise<void>;
  /** Express middleware: document limits, after the body is read and before Apollo. */
  afterBody(req: Request, res: Response, next: NextFunction): void;
  /** The authentication beforeBody settled for this response. */
  authOf(res: Response): Authentication;
  /** The limits of one principal: a trusted service's own, else the default. */
  limitsOf(p: Principal): PrincipalLimits;
  /** One request of `p` against its rate; a refusal when over it. */
  takeRate(p: Principal): Refusal | undefined;
  document(query: unknown): GraphQLError | undefined;
  /** Counts and (throttled) logs a refusal. */
  refused(reason: RefusalReason, who: string): void;
}

export function admission(o: { verifier: TokenVerifier; logger: Logger; registry: Registry; limits: AdmissionLimits }): Admission {
  const buckets = tokenBuckets();
  const inProgress = concurrencyLimiter();
  const checkDocument = cachedDocumentCheck(o.limits.document);
  const refusals = counter(o.registry, {
    name: 'tidemark_requests_refused_total',
    help:
      'GraphQL requests and WebSocket connections refused before any work, by reason ' +
      '(rate, concurrency, anonymous_rate, unauthenticated, body, document, ws_connections, ws_operations).',
    labelNames: ['reason'],
  });
  const lastLogged = new LRUCache<string, true>({ max: 10_000, ttl: 10_000 });
  const limitsOf = (p: Principal) => (p.roles.includes('service') ? o.limits.service : o.limits.principal);
  const refused = (reason: RefusalReason, who: string) => {
    refusals.inc({ reason });
    const key = `${reason}:${who}`;
    if (reason === 'unauthenticated' || lastLogged.has(key)) return;
    lastLogged.set(key, true);
    o.logger.warn({ reason, subject: who }, 'request refused by a limit (logged once per caller and reason every 10 s)');
  };
  const send = (res: Response, status: number, code: string, message: string, extra: Record<string, unknown> = {}) => {
    res.status(status).json({ errors: [{ message, extensions: { code, ...extra, requestId: requestIdFrom(res) } }] });
  };
  const tooMany = (res: Response, r: Refusal, message: string) => {
    res.setHeader('retry-after', String(r.retryAfterSeconds));
    send(res, 429, 'RATE_LIMITED', message, { retriable: true, retryAfterSeconds: r.retryAfterSeconds });
  };
  return {
    async beforeBody(req, res, next) {
      if (req.method === 'OPTIONS') return next();
      const auth = await authenticate(o.verifier, req.headers.authorization);
      const p = auth.principal;
      if (!p) {
        const address = req.socket.remoteAddress ?? 'unknown';
        const over = buckets.take(`address:${address}`, o.limits.anonymous);
        if (over) {
          refused('anonymous_rate', `address:${address}`);
          return tooMany(res, over, 'too many requests without a valid token from this address');
        }
        refused('unauthenticated', address);
        // The unread body is not drained for keep-alive: the connection closes after this answer.
        res.setHeader('connection', 'close');
        const failure = auth.failure;
        const code = failure?.code === 'FORBIDDEN' ? 'FORBIDDEN' : 'UNAUTHENTICATED';
        return send(res, code === 'FORBIDDEN' ? 403 : 401, code, failure?.message ?? 'authentication required', { retriable: false });
      }
      if (Number(req.headers['content-length'] ?? 0) > o.limits.bodyBytes) {
        refused('body', p.subject);
        // Refused from its Content-Length: the body is neither read nor drained (the connection closes).
        res.setHeader('connection', 'close');
        return send(res, 413, 'PAYLOAD_TOO_LARGE', `request body is larger than ${o.limits.bodyBytes / 1024} KiB`, { retriable: false });
      }
      const limits = limitsOf(p);
      const over = buckets.take(`subject:${p.subject}`, limits);
      if (over) {
        refused('rate', p.subject);
        return tooMany(res, over, 'too many requests: slow down and retry after the time given');
      }
      const release = inProgress.acquire(p.subject, limits.concurrent);
      if (!release) {
        refused('concurrency', p.subject);
        return tooMany(res, { retryAfterSeconds: 1 }, `too many requests in progress at once (at most ${limits.concurrent})`);
      }
      res.once('close', release);
      res.locals.auth = auth;
      next();
    },
    afterBody(req, res, next) {
      const query = req.method === 'GET' ? req.query.query : (req.body as { query?: unknown } | undefined)?.query;
      const refusal = checkDocument(query);
      if (!refusal) return next();
      refused('document', String(res.locals.auth?.principal?.subject ?? 'unknown'));
      const { http, ...extensions } = refusal.extensions as { http?: { status?: number }; code?: unknown };
      send(res, http?.status ?? 400, String(extensions.code), refusal.message, { ...extensions, retriable: false });
    },
    authOf: (res) => (res.locals.auth as Authentication | undefined) ?? {},
    limitsOf,
    takeRate: (p) => buckets.take(`subject:${p.subject}`, limitsOf(p)),
    document: checkDocument,
    refused,
  };
}
