// CPU time consumed by a process, from /proc (Linux): a machine-load-independent cost per operation.
// When other work shares the CPUs, throughput falls but CPU-ms per operation stays comparable, so
// the notes can say which side needs more CPU for the same work.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU milliseconds of `pid` so far (NaN when /proc is not available). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Kernel (system) part of `pid`'s CPU milliseconds so far: syscalls, socket writes and reads. */
export function systemMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[12]) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/**
 * Measures the CPU milliseconds `pid` spends while `work` runs, and those of the whole machine (every
 * process: ours, the engines, the load generator), which says what one operation costs in total.
 */
export async function withCpu<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; cpuMs: number; systemMs: number; machineCpuMs: number }> {
  const before = cpuMs(pid);
  const sysBefore = systemMs(pid);
  const machine = machineTicks();
  const result = await work();
  return {
    result,
    cpuMs: cpuMs(pid) - before,
    systemMs: systemMs(pid) - sysBefore,
    machineCpuMs: ((machineTicks().busy - machine.busy) * 1000) / TICKS_PER_SECOND,
  };
}

export interface MachineTicks {
  busy: number;
  total: number;
}

/** Busy and total CPU ticks of the whole machine so far, from /proc/stat (all CPUs together). */
export function machineTicks(): MachineTicks {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!; // "cpu  user nice system idle iowait irq softirq steal ..."
    const t = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = t.reduce((a, b) => a + b, 0);
    return { busy: total - t[3]! - t[4]!, total };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

/**
 * Share (0-1) of the machine's CPU capacity that was busy since `since`, counting every process: when
 * a stage already keeps the machine near 1.0, adding processes cannot make it faster here.
 */
export function machineBusySince(since: MachineTicks): number {
  const now = machineTicks();
  return Math.round(((now.busy - since.busy) / (now.total - since.total)) * 1000) / 1000;
}

/** Machine CPU milliseconds per operation (every process: ours, the engines, the load generator). */
export function machineCpuMsPerOp(busyShare: number, wallMs: number, ops: number): number {
  return Math.round(((busyShare * cpus().length * wallMs) / ops) * 10000) / 10000;
}

type Measured = { cpuMs: number; systemMs: number; machineCpuMs: number };

/** CPU of the alternating rounds of a gateway row: our side (the gateway child) against the raw side (this process). */
export class SideBySideCpu {
  private gateway = 0;
  private gatewaySystem = 0;
  private machineOurs = 0;
  private rawClient = 0;
  private machineRaw = 0;

  ours(m: Measured): void {
    this.gateway += m.cpuMs;
    this.gatewaySystem += m.systemMs;
    this.machineOurs += m.machineCpuMs;
  }

  raw(m: Measured): void {
    this.rawClient += m.cpuMs;
    this.machineRaw += m.machineCpuMs;
  }

  /** CPU milliseconds per successful operation on each side (the machine's too). */
  perOp(oursOk: number, rawOk: number) {
    const per = (ms: number, ok: number) => Math.round((ms / Math.max(ok, 1)) * 1000) / 1000;
    return {
      gateway: per(this.gateway, oursOk),
      gatewayKernel: per(this.gatewaySystem, oursOk),
      rawClient: per(this.rawClient, rawOk),
      machineOurs: per(this.machineOurs, oursOk),
      machineRaw: per(this.machineRaw, rawOk),
    };
  }
}

export interface Settled {
  waitedMs: number;
  /** Machine busy share (0-1) of the last one-second sample. */
  busy: number;
}

/**
 * Waits until the machine has been quiet (at most `maxBusy` busy) for two one-second samples in a row,
 * or `maxWaitMs` passed. Engines keep working after a stage ends (ClickHouse merges, InnoDB purge,
 * Kafka log flushes); without this the side measured first after a heavy phase pays for the last.
 */
export async function settleMachine(o: { maxBusy?: number; maxWaitMs?: number } = {}): Promise<Settled> {
  const maxBusy = o.maxBusy ?? 0.25;
  const maxWaitMs = o.maxWaitMs ?? 60_000;
  const start = performance.now();
  let quiet = 0;
  let busy = 0;
  while (performance.now() - start < maxWaitMs) {
    const t0 = machineTicks();
    await new Promise((r) => setTimeout(r, 1000));
    busy = machineBusySince(t0);
    quiet = busy <= maxBusy ? quiet + 1 : 0;
    if (quiet >= 2 || Number.isNaN(busy)) break;
  }
  return { waitedMs: Math.round(performance.now() - start), busy };
}
