// Load generators that run in the benchmark process, never inside the gateway: a closed loop with a
// fixed number of workers (each starts its next request when the previous one answered) and an open
// loop that starts requests on a fixed schedule whatever the answers do (so a slow server shows up
// as latency instead of silently lowering the offered rate).
import { performance } from 'node:perf_hooks';

export interface LoadReport {
  ok: number;
  failed: number;
  /** Wall time of the measured interval, ms. */
  elapsedMs: number;
  /** Latency of each successful operation, ms. */
  latencies: number[];
  /** A few distinct failure messages (for the notes; never a payload). */
  failures: string[];
}

function remember(failures: string[], err: unknown): void {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const short = text.slice(0, 160);
  if (failures.length < 5 && !failures.includes(short)) failures.push(short);
}

/**
 * `concurrency` workers call `op(workerIndex, sequence)` back to back for `durationMs` (or until
 * `maxOps` operations started). Operations still running at the end are awaited and counted.
 */
export async function closedLoop(o: {
  concurrency: number;
  durationMs: number;
  maxOps?: number;
  op: (worker: number, seq: number) => Promise<void>;
}): Promise<LoadReport> {
  const report: LoadReport = { ok: 0, failed: 0, elapsedMs: 0, latencies: [], failures: [] };
  const start = performance.now();
  const end = start + o.durationMs;
  let seq = 0;
  const worker = async (w: number) => {
    while (performance.now() < end && (o.maxOps === undefined || seq < o.maxOps)) {
      const n = seq++;
      const t0 = performance.now();
      try {
        await o.op(w, n);
        report.latencies.push(performance.now() - t0);
        report.ok++;
      } catch (err) {
        report.failed++;
        remember(report.failures, err);
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, (_, w) => worker(w)));
  report.elapsedMs = performance.now() - start;
  return report;
}

/**
 * Starts `op(seq)` at `ratePerSec` for `durationMs`, in small ticks, without waiting for answers
 * (up to `maxInFlight`, beyond which a start is counted as failed: the server is not keeping up).
 */
export async function openLoop(o: {
  ratePerSec: number;
  durationMs: number;
  maxInFlight?: number;
  op: (seq: number) => Promise<void>;
}): Promise<LoadReport & { offered: number }> {
  const report: LoadReport & { offered: number } = { ok: 0, failed: 0, elapsedMs: 0, latencies: [], failures: [], offered: 0 };
  const maxInFlight = o.maxInFlight ?? 10000;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  let started = 0;
  while (performance.now() - start < o.durationMs) {
    const due = Math.floor(((performance.now() - start) * o.ratePerSec) / 1000);
    while (started < due) {
      const n = started++;
      report.offered++;
      if (inFlight.size >= maxInFlight) {
        report.failed++;
        remember(report.failures, new Error('too many requests in flight (server not keeping up)'));
        continue;
      }
      const t0 = performance.now();
      const p: Promise<void> = o.op(n).then(
        () => {
          report.latencies.push(performance.now() - t0);
          report.ok++;
        },
        (err: unknown) => {
          report.failed++;
          remember(report.failures, err);
        },
      );
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all([...inFlight]);
  report.elapsedMs = performance.now() - start;
  return report;
}
