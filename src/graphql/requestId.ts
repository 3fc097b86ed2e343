// Request ids: a caller's `x-request-id` is kept when it is short and plain (so a proxy's or a
// browser app's id ties our logs to theirs), else one is generated. Either way it is returned in the
// `x-request-id` response header and in every error's `extensions.requestId`, so a client reporting a
// failure can quote the id an operator finds in the logs. Ids are never trusted for anything else.
import type { ApolloServerPlugin } from '@apollo/server';
import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';
// Bounded and free of anything a log viewer or a header could misread (no spaces, quotes, control characters).
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The caller's id when it is safe to echo, else a fresh UUID. */
export function requestIdOf(header: unknown): string {
  return typeof header === 'string' && SAFE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** Settles the request id before anything can fail (body parsing included) and returns it as a header. */
export function requestIdMiddleware() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const id = requestIdOf(req.headers[REQUEST_ID_HEADER]);
    res.locals.requestId = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    next();
  };
}

/** The request id of a request that went through requestIdMiddleware. */
export const requestIdFrom = (res: Response): string => (typeof res.locals.requestId === 'string' ? res.locals.requestId : randomUUID());

/** Adds `extensions.requestId` to every error of a response. */
export function withRequestId<E extends { extensions?: Record<string, unknown> }>(errors: readonly E[], requestId: string): E[] {
  return errors.map((e) => ({ ...e, extensions: { ...e.extensions, requestId } }));
}

export const requestIdPlugin: ApolloServerPlugin<{ requestId: string }> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, contextValue }) {
        if (response.body.kind === 'single' && response.body.singleResult.errors)
          response.body.singleResult.errors = withRequestId(response.body.singleResult.errors, contextValue.requestId);
      },
    };
  },
};
