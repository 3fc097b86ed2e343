// Bounding a network call in time. The wrapped promise keeps running after the timer fires (kafkajs
// cannot cancel a request already written to a socket), which is exactly why a timeout is reported as
// "delivery unknown" and never as "not delivered".
import { TidemarkError } from '../../shared/errors';

export class OperationTimeoutError extends TidemarkError {
  constructor(readonly operation: string, readonly timeoutMs: number) {
    super('PUBLISH_TIMEOUT', `${operation} did not finish within ${timeoutMs} ms`, { details: { operation, timeoutMs } });
    this.name = 'OperationTimeoutError';
  }
}

export function withTimeout<T>(work: Promise<T>, timeoutMs: number, operation: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new OperationTimeoutError(operation, timeoutMs)), Math.max(1, timeoutMs));
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
