// One running reconciliation and one running rebuild per scope in this gateway process: a second
// request for a scope already being worked on is refused at once with OPERATION_IN_PROGRESS
// (retriable), not queued behind it, so a caller repeating a slow operator action cannot pile up
// comparisons of the same data against the stores.
import { TidemarkError } from '../../shared/errors';

const running = new Set<string>();

/** Runs `work` unless `kind` is already running for `scopeKey`, which is refused. */
export async function oneAtATime<T>(kind: 'reconciliation' | 'rebuild', scopeKey: string, work: () => Promise<T>): Promise<T> {
  const key = `${kind}:${scopeKey}`;
  if (running.has(key))
    throw new TidemarkError('OPERATION_IN_PROGRESS', `a ${kind} of this scope is already running: wait for it and retry`, {
      details: { scope: scopeKey },
    });
  running.add(key);
  try {
    return await work();
  } finally {
    running.delete(key);
  }
}
