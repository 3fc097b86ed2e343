// The schedule of every open-loop load in the tests (writes, corrections, edits, order arrivals): every
// 20 ms it starts the operations the rate owes by now, whatever the earlier ones answered, so a slow
// system gets more concurrent work, as it would from real clients. `start(i)` starts the i-th operation,
// or returns undefined when none can start now (say every candidate is busy): the slot waits for the
// next tick. stop() stops starting and waits for those in flight.
export interface OpenLoop {
  stop(): Promise<void>;
}

export function openLoop(perSecond: number, start: (i: number) => Promise<void> | undefined): OpenLoop {
  const inFlight = new Set<Promise<void>>();
  const started = Date.now();
  let n = 0;
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - started) / 1000) * perSecond);
    while (n < due) {
      const p = start(n);
      if (!p) return;
      n++;
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
  }, 20);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}
