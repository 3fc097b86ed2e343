// What knex itself prints. Its pool logs every failed connection attempt with a stack ("Acquire
// connection error ...", "Connection Error: ... Connection lost") on the console; each such failure
// also fails the query that asked for the connection, and that failure is what we report: typed
// (STORE_UNAVAILABLE), redacted and logged once by the component, with the readiness probe naming the
// store. So connection noise is dropped here; a deprecation (a knex upgrade to act on) stays, one line.
import type { Knex } from 'knex';

export const knexLog: NonNullable<Knex.Config['log']> = {
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  deprecate: (method: string, alternative: string) => process.emitWarning(`knex: ${method} is deprecated, use ${alternative}`),
};
