// The console's only way to the gateway: GraphQL over HTTP (POST /graphql) and graphql-ws on the same
// path, both with the signed-in user's bearer token. Errors keep the API's stable code, so pages can
// tell "your role may not" (FORBIDDEN) from "sign in again" (UNAUTHENTICATED) from a store outage.
import { createClient, type Client } from 'graphql-ws';
import type { TypedDocumentString } from './generated';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface GraphQLErrorLike {
  message: string;
  extensions?: { code?: string };
}

type Listener = (code: string) => void;
let onAuthFailure: Listener = () => undefined;
/** Called with UNAUTHENTICATED when the gateway stops accepting the token (it expired, say). */
export function setAuthFailureListener(l: Listener): void {
  onAuthFailure = l;
}

function firstError(errors: readonly GraphQLErrorLike[]): ApiError {
  const e = errors[0]!;
  const code = e.extensions?.code ?? 'INTERNAL_SERVER_ERROR';
  if (code === 'UNAUTHENTICATED') onAuthFailure(code);
  return new ApiError(code, e.message);
}

export async function request<R, V>(doc: TypedDocumentString<R, V>, variables: V, token: string): Promise<R> {
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: doc.toString(), variables }),
    });
  } catch {
    throw new ApiError('NETWORK', 'The gateway cannot be reached.');
  }
  let body: { data?: R | null; errors?: GraphQLErrorLike[] };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new ApiError('BAD_RESPONSE', `The gateway answered ${res.status} without GraphQL.`);
  }
  if (body.errors?.length) throw firstError(body.errors);
  if (!body.data) throw new ApiError('BAD_RESPONSE', 'The gateway answered without data.');
  return body.data;
}

export type ConnectionState = 'connecting' | 'connected' | 'closed';

/** One WebSocket per signed-in session; it reconnects by itself (subscriptions resume on reconnect). */
export function liveClient(token: string, onState: (s: ConnectionState) => void): Client {
  return createClient({
    url: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`,
    connectionParams: { authorization: `Bearer ${token}` },
    lazy: true,
    keepAlive: 10000,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    on: {
      connecting: () => onState('connecting'),
      connected: () => onState('connected'),
      closed: () => onState('closed'),
    },
  });
}

/** Subscribes with a typed document; returns the unsubscribe function. */
export function subscribeTo<R, V>(
  client: Client,
  doc: TypedDocumentString<R, V>,
  variables: V,
  next: (r: R) => void,
  error: (e: ApiError) => void,
): () => void {
  return client.subscribe<R>(
    { query: doc.toString(), variables: variables as Record<string, unknown> },
    {
      next: (v) => {
        if (v.errors?.length) error(firstError(v.errors as GraphQLErrorLike[]));
        else if (v.data) next(v.data);
      },
      error: (e) => error(Array.isArray(e) ? firstError(e as GraphQLErrorLike[]) : new ApiError('NETWORK', 'The live connection failed.')),
      complete: () => undefined,
    },
  );
}
