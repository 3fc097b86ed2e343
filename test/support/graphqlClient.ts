// A minimal typed GraphQL-over-HTTP client for e2e tests, driven by codegen's typed documents.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';

export interface GraphQLResponse<T> {
  status: number;
  data?: T | null;
  errors?: { message: string; path?: string[]; extensions?: { code?: string; [k: string]: unknown } }[];
}

export async function execute<T, V>(
  url: string,
  doc: TypedDocumentNode<T, V>,
  variables?: V,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<T>> {
  const res = await fetch(url, {
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
