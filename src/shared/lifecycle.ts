// Long-running components (relay, projector, servers) all expose the same shape: they start on
// construction and `stop()` drains in-flight work before resolving.
export interface Stoppable {
  stop(): Promise<void>;
}

/** Resolves after `ms`, or at once when the signal aborts (so loops can drain promptly on stop). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Polls `check` until it returns a truthy value or the timeout passes. Used by tests and start-up waits. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30000);
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as T;
    } catch (e) {
      lastErr = e;
    }
    if (Date.now() > deadline) {
      const why = lastErr instanceof Error ? `: ${lastErr.message}` : '';
      throw new Error(`timed out after ${opts.timeoutMs ?? 30000} ms waiting for ${opts.what ?? 'condition'}${why}`);
    }
    await sleep(opts.intervalMs ?? 100);
  }
}

/** Runs `task` now and then every `ms` until stopped; a failure goes to `onError` and the next tick tries again. */
export function repeatEvery(ms: number, task: () => Promise<unknown>, onError: (err: unknown) => void): Stoppable {
  const abort = new AbortController();
  const loop = (async () => {
    while (!abort.signal.aborted) {
      await task().catch(onError);
      await sleep(ms, abort.signal);
    }
  })();
  return {
    async stop() {
      abort.abort();
      await loop;
    },
  };
}

/**
 * A component the process builds at most once, on first use, whoever asks: `owned` receives it when it is
 * built, so its owner stops it (once) after everything started before the first asker.
 */
export function builtOnce<T extends Stoppable>(build: () => T, owned: Stoppable[]): () => T {
  let built: T | undefined;
  return () => {
    if (built) return built;
    built = build();
    owned.push(built);
    return built;
  };
}
