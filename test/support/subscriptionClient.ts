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
