// graphql-ws's own client, for e2e subscription tests: collects every event of one subscription.
import { createClient, type Client } from 'graphql-ws';
import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import WebSocket from 'ws';

export interface Collected<T> {
  events: T[];
  errors: unknown[];
  completed: boolean;
  closeCode?: number;
  /** The client's WebSocket once connected (tests pause it to stop reading). */
  socket?: WebSocket;
  client: Client;
  dispose(): Promise<void>;
}

export function subscribe<T, V>(wsUrl: string, doc: TypedDocumentNode<T, V>, variables: V, authorization?: string): Collected<T> {
  const out: Collected<T> = {
    events: [],
    errors: [],
    completed: false,
    client: undefined as unknown as Client,
    dispose: async () => {
      await out.client.dispose();
    },
  };
  out.client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: authorization ? { authorization } : {},
    retryAttempts: 0,
    lazy: false,
    on: {
      connected: (socket) => (out.socket = socket as WebSocket),
      closed: (e) => (out.closeCode = (e as { code?: number }).code),
    },
  });
  out.client.subscribe<T>(
    { query: print(doc), variables: variables as Record<string, unknown> },
    {
      next: (v) => (v.data ? out.events.push(v.data as T) : out.errors.push(v.errors)),
      error: (e) => out.errors.push(e),
      complete: () => (out.completed = true),
    },
  );
  return out;
}

/** A plain graphql-ws client (many operations share its one connection). */
export function wsClient(wsUrl: string, authorization?: string): Client {
  return createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: authorization ? { authorization } : {}, retryAttempts: 0 });
}

/** One query or mutation over a graphql-ws connection: its single result (data and errors). */
export function wsQuery<T, V>(
  client: Client,
  doc: TypedDocumentNode<T, V>,
  variables: V,
): Promise<{ data?: T | null; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }> {
  return new Promise((resolve, reject) => {
    let result: { data?: T | null; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] } = {};
    client.subscribe<T>(
      { query: print(doc), variables: variables as Record<string, unknown> },
      {
        next: (v) => (result = { data: v.data as T | null | undefined, errors: v.errors as never }),
        error: (e) => (Array.isArray(e) ? resolve({ errors: e as never }) : reject(e instanceof Error ? e : new Error(String(e)))),
        complete: () => resolve(result),
      },
    );
  });
}
