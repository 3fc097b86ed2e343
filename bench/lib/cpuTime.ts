// CPU time consumed by a process, from /proc (Linux): a machine-load-independent cost per operation.
// When other work shares the CPUs, throughput falls but CPU-ms per operation stays comparable, so
// the notes can say which side needs more CPU for the same work.
import { readFileSync } from 'node:fs';

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

/** Measures the CPU milliseconds `pid` spends while `work` runs. */
export async function withCpu<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = cpuMs(pid);
  const result = await work();
  return { result, cpuMs: cpuMs(pid) - before };
}
