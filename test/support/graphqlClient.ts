// A minimal typed GraphQL-over-HTTP client for e2e tests, driven by codegen's typed documents.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';

export interface GraphQLResponse<T> {
  status: number;
  data?: T | null;
  errors?: { message: string; path?: string[]; extensions?: { code?: string; [k: string]: unknown } }[];
}

/**
 * fetch, asked again (up to 3 times) only when no connection was made: then no request was sent, so even
 * a mutation is safe to repeat. On a loaded test machine undici's 10 s connect timer can fire before a
 * stalled event loop has seen the local connection complete; that says nothing about the gateway.
 */
async function post(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      if (code !== 'UND_ERR_CONNECT_TIMEOUT' || attempt >= 3) throw err;
    }
  }
}

/**
 * Whether fetch failed at the transport (no connection, a reset): undici's `TypeError: fetch failed`.
 * By name, not instanceof: fetch belongs to Node's realm, and jest runs a test in a realm of its own,
 * whose Error and TypeError are other classes (an instanceof check there is always false).
 */
export function isFetchFailure(err: unknown): boolean {
  const e = err as { name?: unknown; message?: unknown } | null;
  return typeof e === 'object' && e !== null && e.name === 'TypeError' && e.message === 'fetch failed';
}

export async function execute<T, V>(
  url: string,
  doc: TypedDocumentNode<T, V>,
  variables?: V,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<T>> {
  const res = await post(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: print(doc), variables }),
  });
  const body = (await res.json()) as Omit<GraphQLResponse<T>, 'status'>;
  return { status: res.status, ...body };
}

/** Raw query text, for hostile or hand-written requests. */
export async function executeRaw(
  url: string,
  query: string,
  variables?: unknown,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<Record<string, unknown>>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, ...((await res.json()) as object) };
}
