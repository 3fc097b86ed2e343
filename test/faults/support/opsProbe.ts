// Reading a role process's operations endpoints (OPS_PORT, or the gateway's own port): readiness, and
// Prometheus values by metric name. The event-loop watch scrapes the process's own
// nodejs_eventloop_lag_p99_seconds (prom-client resets its histogram at each scrape, so each sample
// is the p99 of the delays since the previous scrape).
import { sleep } from '../../../src/shared/lifecycle';

export interface ReadyAnswer {
  status: number;
  body: { status?: string; failing?: string[]; degraded?: string[]; stores?: Record<string, boolean> };
}

export async function readyz(baseUrl: string): Promise<ReadyAnswer> {
  const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(10000) });
  return { status: res.status, body: (await res.json()) as ReadyAnswer['body'] };
}

/** Values of every series whose metric name ends with `suffix` (the prefix is the registry's business). */
export async function metricValues(baseUrl: string, suffix: string): Promise<{ name: string; labels: string; value: number }[]> {
  const text = await (await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(10000) })).text();
  const out: { name: string; labels: string; value: number }[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (m && m[1]!.endsWith(suffix)) out.push({ name: m[1]!, labels: m[2] ?? '', value: Number(m[3]) });
  }
  return out;
}

/** What an event-loop watch saw: its windows' p99s and the process's CPU share over the watch. */
export interface EventLoopFigures {
  samples: number;
  /** The highest of the windows' p99 delays (ms). */
  maxP99Ms: number;
  /** The windows' p99 delays (ms), in order. */
  windowsP99Ms: number[];
  /** CPU seconds the process used per wall second over the watch (process_cpu_seconds_total), or null if unread. */
  cpuShare: number | null;
  unreadable: number;
}

/**
 * Samples a process's event-loop delay p99 (ms) every `everyMs` until stopped: like a Prometheus scrape
 * (usually every 15 s), each sample is the p99 of the delays since the previous one. The last window
 * is cut short at stop(); it still counts. The process's CPU seconds are read at both ends, so a figure
 * can be told apart: a process busy with its own work, or one waiting for cores other processes hold.
 */
export class EventLoopWatch {
  readonly p99Ms: number[] = [];
  private running = false;
  private loop?: Promise<void>;
  private readonly stopping = new AbortController();
  private cpuAtStart?: { cpuS: number; at: number };
  unreadable = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly everyMs = 5000,
  ) {}

  start(): this {
    this.running = true;
    this.loop = (async () => {
      this.cpuAtStart = await this.cpu(); // the scrape also resets the delay window
      while (this.running) {
        await sleep(this.everyMs, this.stopping.signal);
        const v = await metricValues(this.baseUrl, 'nodejs_eventloop_lag_p99_seconds').catch(() => undefined);
        if (v?.length) this.p99Ms.push(Math.round(v[0]!.value * 10000) / 10);
        else this.unreadable++;
      }
    })();
    return this;
  }

  private async cpu(): Promise<{ cpuS: number; at: number } | undefined> {
    const v = await metricValues(this.baseUrl, 'process_cpu_seconds_total').catch(() => undefined);
    return v?.length ? { cpuS: v[0]!.value, at: Date.now() } : undefined;
  }

  async stop(): Promise<EventLoopFigures> {
    this.running = false;
    this.stopping.abort();
    await this.loop;
    const end = await this.cpu();
    const from = this.cpuAtStart;
    const cpuShare =
      from && end && end.at > from.at ? Math.round(((end.cpuS - from.cpuS) / ((end.at - from.at) / 1000)) * 1000) / 1000 : null;
    return {
      samples: this.p99Ms.length,
      maxP99Ms: Math.max(0, ...this.p99Ms),
      windowsP99Ms: [...this.p99Ms],
      cpuShare,
      unreadable: this.unreadable,
    };
  }
}
