// The abort signal of the client request a piece of work is done for, carried implicitly (Node's
// AsyncLocalStorage, the way tracing carries its context) so a read deep in a resolver can be cancelled
// when its caller goes away without threading a signal through every service signature. The gateway
// sets it per GraphQL request (server.ts); the ClickHouse read store ties its query to it
// (readModelStore.ts: the HTTP request is aborted and the server's query killed).
//
// Work shared between requests (coalesced lookups, forward-shared freshness reads) must not be
// cancelled because one of its callers left: it runs `sharedAcrossRequests`, with no signal.
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<AbortSignal | undefined>();

/** Runs `fn` (and everything it starts) on behalf of the request whose signal this is. */
export function withRequestSignal<T>(signal: AbortSignal, fn: () => T): T {
  return storage.run(signal, fn);
}

/** The signal of the request the current work is done for; undefined outside one, or in shared work. */
export function requestSignal(): AbortSignal | undefined {
  return storage.getStore();
}

/** Runs `fn` as work no single request owns: nothing it starts is cancelled when one caller leaves. */
export function sharedAcrossRequests<T>(fn: () => T): T {
  return storage.run(undefined, fn);
}
