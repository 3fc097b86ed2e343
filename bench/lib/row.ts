// The shape every benchmark row returns, and the context it runs in. A row measures our path and its
// ceiling side by side in one run; its ratio is ours/ceiling for throughputs and ceiling/ours for
// latencies, so 1.0 always means "as good as the engine doing the same work without us".

export type RowStatus = 'ok' | 'n/a' | 'error';

export interface RowResult {
  id: number;
  name: string;
  status: RowStatus;
  /** Unit of `ours` and `ceiling` (e.g. "writes/s", "ms p50"). */
  unit: string;
  ours?: number;
  ceiling?: number;
  ratio?: number;
  /** The target in words, e.g. "ratio >= 0.7". */
  target: string;
  met?: boolean;
  /** Everything else measured (latency percentiles, counts, settings used). */
  details: Record<string, unknown>;
  /** Why a row is n/a, what failed, or what limits it. */
  note?: string;
  durationMs?: number;
}

export interface BenchContext {
  quick: boolean;
  /** Folder for CPU profiles of the gateway/worker children, when profiling was asked for. */
  profileDir?: string;
  /** Measured write-path capacity (row 1), used by the end-to-end row's open-loop rate. */
  writeCapacityPerSec?: number;
  log(line: string): void;
  /** Waits (bounded) until the machine is quiet again after a heavy phase; see settleMachine. */
  settle(): Promise<void>;
}

export interface BenchRow {
  id: number;
  name: string;
  run(ctx: BenchContext): Promise<RowResult>;
}

export function notBuilt(id: number, name: string, unit: string, target: string, missing: string): RowResult {
  return { id, name, status: 'n/a', unit, target, details: {}, note: `n/a (not built): ${missing}` };
}
