// One GraphQL request with a client-side deadline, classified the way the fault suite judges the
// gateway: data, a typed error (extensions.code), or something unclear (timeout = a hang, a network
// failure, a non-JSON answer). A gateway that hangs while a store is down shows up as 'timeout'.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';

export type AnswerKind = 'data' | 'error' | 'timeout' | 'network' | 'http';

export interface Answer<T> {
  kind: AnswerKind;
  data?: T;
  /** extensions.code of the first error ('error' answers). */
  code?: string;
  message?: string;
  details?: Record<string, unknown>;
  status?: number;
  ms: number;
}

/** Codes a client can act on. INTERNAL_SERVER_ERROR is typed but says nothing: the suite counts it as unclear. */
export const CLEAR_CODES = new Set([
  'STORE_UNAVAILABLE',
  'VERSION_CONFLICT',
  'NOT_FOUND',
  'VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'IDEMPOTENCY_CONFLICT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'PUBLISH_FAILED',
  'PUBLISH_TIMEOUT',
  'GRAPHQL_VALIDATION_FAILED',
  'GRAPHQL_PARSE_FAILED',
  'QUERY_TOO_COMPLEX',
  'BAD_REQUEST',
  'PAYLOAD_TOO_LARGE',
  'OPERATION_RESOLUTION_FAILURE',
  'DOCUMENT_TOO_LARGE',
  'RATE_LIMITED',
  'FILTER_REQUIRED',
  'READ_TOO_EXPENSIVE',
  'READ_MODEL_UNAVAILABLE',
  'OPERATION_IN_PROGRESS',
]);

export function isClear(a: Answer<unknown>): boolean {
  return a.kind === 'data' || (a.kind === 'error' && a.code !== undefined && CLEAR_CODES.has(a.code) && !!a.message);
}

export async function call<T, V>(
  url: string,
  doc: TypedDocumentNode<T, V>,
  variables: V,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Answer<T>> {
  return callRaw<T>(url, print(doc), variables, headers, timeoutMs);
}

export async function callRaw<T>(
  url: string,
  query: string,
  variables: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Answer<T>> {
  const started = Date.now();
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const name = (err as Error).name;
    return {
      kind: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network',
      message: (err as Error).message,
      ms: Date.now() - started,
    };
  }
  let body: { data?: T | null; errors?: { message: string; extensions?: { code?: string; details?: Record<string, unknown> } }[] };
  try {
    body = (await res.json()) as typeof body;
  } catch (err) {
    const name = (err as Error).name;
    return { kind: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'http', status: res.status, ms: Date.now() - started };
  }
  const ms = Date.now() - started;
  const e = body.errors?.[0];
  if (e) return { kind: 'error', code: e.extensions?.code, message: e.message, details: e.extensions?.details, status: res.status, ms };
  return { kind: 'data', data: body.data ?? undefined, status: res.status, ms };
}
