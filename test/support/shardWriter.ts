// Steady fitness writes to the students of one shard, through GraphQL, one at a time on a fixed pace:
// a test that takes a shard's server away needs each shard's stream on its own, to time the other
// shard's writes and to see every answer the lost shard gives. Each write is kept with the phase it
// was sent in, its latency and its answer: the result's id when acknowledged, else the error's
// extensions.code and retriable (TIMEOUT or NETWORK when no GraphQL answer came). hold() parks the
// stream between two writes, so a fault can be injected with no write of this shard in flight and
// every write is then sent either before it or after it.
import { performance } from 'node:perf_hooks';
import { shardForUser } from '../../src/domains/fitness/sharding';
import { sleep } from '../../src/shared/lifecycle';

const RECORD = `mutation($input: RecordFitnessResultInput!) { recordFitnessResult(input: $input) { result { dataId } } }`;
// Longer than any answer a healthy gateway gives under load: past it the write counts as a hang.
const TIMEOUT_MS = 15000;

export interface ShardWrite {
  phase: string;
  /** Sent at (ms since the epoch), and how long its answer took (ms). */
  at: number;
  ms: number;
  /** The acknowledged result's id. */
  dataId?: string;
  /** Why it was refused: extensions.code, or TIMEOUT / NETWORK / NO_DATA. */
  code?: string;
  retriable?: unknown;
  /** The refusal's message, to check it names no server (kept in memory, never logged). */
  message?: string;
}

/** `count` students whose results route to `shard` of `shardCount`, from userId `from` up. */
export function studentsOn(shard: number, shardCount: number, count: number, from: number): number[] {
  const out: number[] = [];
  for (let u = from; out.length < count; u++) if (shardForUser(u, shardCount) === shard) out.push(u);
  return out;
}

/** Nearest-rank percentile of `values` (0 when there are none). */
export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export class ShardWriter {
  readonly writes: ShardWrite[] = [];
  /** Tags every write sent from now on. */
  phase = 'baseline';
  private running = false;
  private loop?: Promise<void>;
  private gate?: Promise<void>;
  private openGate?: () => void;
  private parked?: () => void;

  constructor(
    private readonly o: { url: string; headers: Record<string, string>; detectId: number; students: number[]; everyMs: number },
  ) {}

  start(): this {
    this.running = true;
    this.loop = (async () => {
      let next = performance.now();
      for (let i = 0; this.running; i++) {
        if (this.gate) {
          this.parked?.();
          await this.gate;
          next = performance.now();
          if (!this.running) break;
        }
        await this.writeOnce(i);
        // A fixed pace; a slow answer is not made up for with a burst.
        next = Math.max(next + this.o.everyMs, performance.now());
        await sleep(next - performance.now());
      }
    })();
    return this;
  }

  /** Resolves once no write is in flight; no write is sent until resume(). */
  hold(): Promise<void> {
    if (this.gate) throw new Error('the shard writer is already held');
    this.gate = new Promise((r) => (this.openGate = r));
    return new Promise((r) => (this.parked = r));
  }

  resume(): void {
    const open = this.openGate;
    this.gate = this.openGate = this.parked = undefined;
    open?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.resume();
    await this.loop;
  }

  acknowledged(): ShardWrite[] {
    return this.writes.filter((w) => w.dataId !== undefined);
  }

  in(phase: string): ShardWrite[] {
    return this.writes.filter((w) => w.phase === phase);
  }

  private async writeOnce(i: number): Promise<void> {
    const { students } = this.o;
    const input = {
      detectId: this.o.detectId,
      userId: students[i % students.length],
      projectId: 3,
      schoolId: 5,
      grade: 5,
      result: (1.5 + (i % 100) / 100).toFixed(2),
      unit: 'm',
    };
    const phase = this.phase;
    const at = Date.now();
    const t0 = performance.now();
    try {
      const res = await fetch(this.o.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.o.headers },
        body: JSON.stringify({ query: RECORD, variables: { input } }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      type Body = {
        data?: { recordFitnessResult?: { result?: { dataId?: string } } } | null;
        errors?: { message?: string; extensions?: { code?: string; retriable?: unknown } }[];
      };
      const body = (await res.json()) as Body;
      const ms = performance.now() - t0;
      const dataId = body.data?.recordFitnessResult?.result?.dataId;
      const error = body.errors?.[0];
      if (dataId !== undefined && !error) this.writes.push({ phase, at, ms, dataId });
      else {
        const e = error?.extensions;
        this.writes.push({ phase, at, ms, code: e?.code ?? 'NO_DATA', retriable: e?.retriable, message: error?.message });
      }
    } catch (err) {
      const name = (err as Error).name;
      const code = name === 'TimeoutError' || name === 'AbortError' ? 'TIMEOUT' : 'NETWORK';
      this.writes.push({ phase, at, ms: performance.now() - t0, code });
    }
  }
}
