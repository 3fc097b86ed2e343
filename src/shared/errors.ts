// Typed errors: one class, a closed code union and a retriable flag (after kafkajs' errors.js).
// Domain and infra code throw these; anything else is normalised by `toTidemarkError` at the boundary,
// and only src/graphql maps codes to GraphQL error codes. Messages here are safe to show a client:
// never put raw exception text, SQL or payloads into `message` (they go to `cause`, which is logged).

export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'VALIDATION_FAILED'
  | 'NOT_FOUND'
  | 'VERSION_CONFLICT'
  | 'IDEMPOTENCY_CONFLICT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'STORE_UNAVAILABLE'
  | 'PUBLISH_FAILED'
  | 'PUBLISH_TIMEOUT'
  | 'CONFIG_INVALID'
  | 'CONFLICT'
  | 'INTERNAL';

const RETRIABLE_BY_DEFAULT: ReadonlySet<ErrorCode> = new Set(['STORE_UNAVAILABLE', 'PUBLISH_FAILED', 'PUBLISH_TIMEOUT']);

export interface TidemarkErrorOptions {
  retriable?: boolean;
  /** Safe, structured facts a client may see (e.g. currentVersion, field). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class TidemarkError extends Error {
  readonly retriable: boolean;
  readonly details: Record<string, unknown>;
  constructor(readonly code: ErrorCode, message: string, opts: TidemarkErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'TidemarkError';
    this.retriable = opts.retriable ?? RETRIABLE_BY_DEFAULT.has(code);
    this.details = opts.details ?? {};
  }
}

export class ValidationError extends TidemarkError {
  constructor(readonly field: string, message: string, details: Record<string, unknown> = {}) {
    super('VALIDATION_FAILED', message, { details: { field, ...details } });
    this.name = 'ValidationError';
  }
}

export class NotFoundError extends TidemarkError {
  constructor(what: string, id: string | number) {
    super('NOT_FOUND', `${what} ${id} does not exist`, { details: { id: String(id) } });
    this.name = 'NotFoundError';
  }
}

export class VersionConflictError extends TidemarkError {
  constructor(id: string | number, readonly expectedVersion: number, readonly currentVersion: number) {
    super('VERSION_CONFLICT', `expected version ${expectedVersion} but the current version is ${currentVersion}`, {
      details: { id: String(id), expectedVersion, currentVersion },
    });
    this.name = 'VersionConflictError';
  }
}

export class StoreUnavailableError extends TidemarkError {
  constructor(readonly store: string, cause?: unknown) {
    super('STORE_UNAVAILABLE', `${store} is unavailable; retry later`, { cause, details: { store } });
    this.name = 'StoreUnavailableError';
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST', 'ER_CON_COUNT_ERROR', 'ER_SERVER_SHUTDOWN', 'ER_CONNECTION_KILLED', '57P01', '57P03', '08006', '08001', '08003',
]);

// Drivers that lost their connection mid-transaction say so only in the message: mysql2 for a
// statement on a connection the server closed, pg for a client whose socket failed.
const CONNECTION_MESSAGES = /ECONNREFUSED|Connection terminated|connect ETIMEDOUT|socket hang up|connection is in closed state|Client has encountered a connection error|Connection lost|Connection was killed/;

/** True when an unknown driver error means the store could not be reached (retriable). */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  if (e.name === 'KnexTimeoutError') return true;
  return typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message);
}

/** Normalises anything thrown into a TidemarkError; unknown errors become INTERNAL with a safe message. */
export function toTidemarkError(err: unknown, store?: string): TidemarkError {
  if (err instanceof TidemarkError) return err;
  if (store && isConnectionError(err)) return new StoreUnavailableError(store, err);
  return new TidemarkError('INTERNAL', 'internal error', { cause: err, retriable: false });
}
