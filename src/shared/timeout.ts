// The one way to bound a promise in time. The wrapped work keeps running after the timer fires (a
// Kafka request already written to a socket cannot be cancelled), which is why a timed-out publish
// is "delivery unknown", never "not delivered". The loser's rejection is swallowed so it can never
// surface as an unhandled rejection after the race is decided. One error class for every timeout:
// a publish that ran out of time (the relay's, the sink's or the direct path's) is PUBLISH_TIMEOUT,
// which the publish-failure classification reads as an outage.
import { TidemarkError, type ErrorCode } from './errors';

export class OperationTimeoutError extends TidemarkError {
  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
    code: ErrorCode = 'PUBLISH_TIMEOUT',
    message = `${operation} did not finish within ${timeoutMs} ms`,
  ) {
    super(code, message, { details: { operation, timeoutMs } });
    this.name = 'OperationTimeoutError';
  }
}

/** A Kafka publish the broker did not acknowledge in time: delivery is uncertain, never known lost. */
export function publishTimeout(timeoutMs: number): OperationTimeoutError {
  const message = `the broker did not acknowledge within ${timeoutMs} ms; delivery is uncertain`;
  return new OperationTimeoutError('publish', timeoutMs, 'PUBLISH_TIMEOUT', message);
}

/** Rejects with OperationTimeoutError(operation) (or `onTimeout()`) when `work` takes longer than `timeoutMs`. */
export function withTimeout<T>(work: Promise<T>, timeoutMs: number, operation: string | (() => Error)): Promise<T> {
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(typeof operation === 'string' ? new OperationTimeoutError(operation, timeoutMs) : operation()),
      Math.max(1, timeoutMs),
    );
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
