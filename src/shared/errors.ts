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
  | 'READ_MODEL_UNAVAILABLE'
  | 'PUBLISH_FAILED'
  | 'PUBLISH_TIMEOUT'
  | 'CONFIG_INVALID'
  | 'CONFLICT'
  | 'OVERLOADED'
  | 'RATE_LIMITED'
  | 'OPERATION_IN_PROGRESS'
  | 'FILTER_REQUIRED'
  | 'READ_TOO_EXPENSIVE'
  | 'CANCELLED'
  | 'INTERNAL';

const RETRIABLE_BY_DEFAULT: ReadonlySet<ErrorCode> = new Set([
  'STORE_UNAVAILABLE',
  'READ_MODEL_UNAVAILABLE',
  'PUBLISH_FAILED',
  'PUBLISH_TIMEOUT',
  'OVERLOADED',
  'RATE_LIMITED',
  'OPERATION_IN_PROGRESS',
]);

export interface TidemarkErrorOptions {
  retriable?: boolean;
  /** Safe, structured facts a client may see (e.g. currentVersion, field). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class TidemarkError extends Error {
  readonly retriable: boolean;
  readonly details: Record<string, unknown>;
  constructor(
    readonly code: ErrorCode,
    message: string,
    opts: TidemarkErrorOptions = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'TidemarkError';
    this.retriable = opts.retriable ?? RETRIABLE_BY_DEFAULT.has(code);
    this.details = opts.details ?? {};
  }
}

export class ValidationError extends TidemarkError {
  constructor(
    readonly field: string,
    message: string,
    details: Record<string, unknown> = {},
  ) {
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
  constructor(
    id: string | number,
    readonly expectedVersion: number,
    readonly currentVersion: number,
  ) {
    super('VERSION_CONFLICT', `expected version ${expectedVersion} but the current version is ${currentVersion}`, {
      details: { id: String(id), expectedVersion, currentVersion },
    });
    this.name = 'VersionConflictError';
  }
}

export class StoreUnavailableError extends TidemarkError {
  constructor(
    readonly store: string,
    cause?: unknown,
  ) {
    super('STORE_UNAVAILABLE', `${store} is unavailable; retry later`, { cause, details: { store } });
    this.name = 'StoreUnavailableError';
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  '57P01',
  '57P03',
  '08006',
  '08001',
  '08003',
]);

// Drivers that lost their connection mid-transaction say so only in the message: mysql2 for a
// statement on a connection the server closed, pg for a client whose socket failed.
const CONNECTION_MESSAGES = new RegExp(
  [
    'ECONNREFUSED',
    'Connection terminated',
    'connect ETIMEDOUT',
    'socket hang up',
    'connection is in closed state',
    'Client has encountered a connection error',
    'Connection lost',
    'Connection was killed',
  ].join('|'),
);

/** True when an unknown driver error means the store could not be reached (retriable). */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  if (e.name === 'KnexTimeoutError') return true;
  return typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message);
}

export type TransportRefusal =
  | 'CERTIFICATE_UNTRUSTED'
  | 'CERTIFICATE_NAME_MISMATCH'
  | 'CERTIFICATE_EXPIRED'
  | 'TLS_REQUIRED_BY_SERVER'
  | 'TLS_NOT_OFFERED_BY_SERVER'
  | 'CLIENT_CERTIFICATE_REQUIRED'
  | 'AUTHENTICATION_FAILED';

const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
]);
const CLIENT_CERT_ALERTS = new Set([
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
]);
const WHY: Record<TransportRefusal, string> = {
  CERTIFICATE_UNTRUSTED: 'the server certificate is not signed by a trusted CA',
  CERTIFICATE_NAME_MISMATCH: 'the server certificate does not name the host connected to',
  CERTIFICATE_EXPIRED: 'the server certificate has expired or is not valid yet',
  TLS_REQUIRED_BY_SERVER: 'the server accepts only encrypted connections',
  TLS_NOT_OFFERED_BY_SERVER: 'the server does not offer TLS',
  CLIENT_CERTIFICATE_REQUIRED: 'the server requires a client certificate it trusts',
  AUTHENTICATION_FAILED: 'the server rejected the SASL credentials',
};

/** Why a driver error is a refused TLS handshake or SASL login (walking causes), or undefined. */
export function transportRefusal(err: unknown): TransportRefusal | undefined {
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && typeof e === 'object' && depth < 6; depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : '';
    if (code === 'HANDSHAKE_SSL_ERROR') return handshakeMessage(message); // mysql2 keeps node's message, not its code
    if (UNTRUSTED.has(code)) return 'CERTIFICATE_UNTRUSTED';
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'CERTIFICATE_NAME_MISMATCH';
    if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'CERTIFICATE_EXPIRED';
    if (e.name === 'KafkaJSSASLAuthenticationError') return 'AUTHENTICATION_FAILED';
    // PostgreSQL's pg_hba answer to a plaintext client of a hostssl-only server; MySQL's require_secure_transport.
    if (/no pg_hba\.conf entry .*no encryption/.test(message) || code === 'ER_SECURE_TRANSPORT_REQUIRED') return 'TLS_REQUIRED_BY_SERVER';
    // The server's own TLS alerts about our (missing or unknown) client certificate; PostgreSQL says it in words.
    if (CLIENT_CERT_ALERTS.has(code) || /requires a valid client certificate/.test(message)) return 'CLIENT_CERTIFICATE_REQUIRED';
    if (/server does not support SSL/i.test(message) || code === 'HANDSHAKE_NO_SSL_SUPPORT') return 'TLS_NOT_OFFERED_BY_SERVER';
    e = (e.cause ?? e.originalError) as Record<string, unknown> | undefined;
  }
  return undefined;
}

/** node's TLS verification messages, for drivers that replace its error code with their own. */
function handshakeMessage(message: string): TransportRefusal | undefined {
  if (/altnames/.test(message)) return 'CERTIFICATE_NAME_MISMATCH';
  if (/certificate has expired|certificate is not yet valid/.test(message)) return 'CERTIFICATE_EXPIRED';
  if (/self[- ]signed|unable to (verify|get)|certificate signature failure/.test(message)) return 'CERTIFICATE_UNTRUSTED';
  if (/alert (bad certificate|certificate required|unknown ca)/.test(message)) return 'CLIENT_CERTIFICATE_REQUIRED';
  return undefined;
}

/**
 * An engine refused our secure connection: a configuration problem, not an outage, so not retriable.
 * The message names the engine, the reason and the settings to look at; never the driver's text.
 */
export class TransportSecurityError extends TidemarkError {
  constructor(
    readonly store: string,
    readonly reason: TransportRefusal,
    cause: unknown,
    settings?: string,
  ) {
    const hint = settings ? ` (check ${settings})` : '';
    const message = `${store} refused the connection: ${WHY[reason]}${hint}`;
    super('STORE_UNAVAILABLE', message, { cause, retriable: false, details: { store, reason } });
    this.name = 'TransportSecurityError';
  }
}

/** Normalises anything thrown into a TidemarkError; unknown errors become INTERNAL with a safe message. */
export function toTidemarkError(err: unknown, store?: string): TidemarkError {
  if (err instanceof TidemarkError) return err;
  const refusal = store ? transportRefusal(err) : undefined;
  if (store && refusal) return new TransportSecurityError(store, refusal, err);
  if (store && isConnectionError(err)) return new StoreUnavailableError(store, err);
  return new TidemarkError('INTERNAL', 'internal error', { cause: err, retriable: false });
}
