// Wakes a store's helper relay loops when a claim came back full (a backlog is waiting). The first
// loop of a store polls; helpers sleep on this signal, so an idle store costs one loop's polling.
export interface BacklogSignal {
  /** A loop claimed a full batch: more rows are probably waiting. */
  notify(): void;
  /** Resolves at the next notify() (or when `signal` aborts). */
  wait(signal: AbortSignal): Promise<void>;
}

export function backlogSignal(): BacklogSignal {
  const waiters = new Set<() => void>();
  return {
    notify() {
      for (const wake of [...waiters]) wake();
    },
    wait(signal) {
      return new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const wake = () => {
          waiters.delete(wake);
          signal.removeEventListener('abort', wake);
          resolve();
        };
        waiters.add(wake);
        signal.addEventListener('abort', wake);
      });
    },
  };
}
