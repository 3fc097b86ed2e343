// Latency and throughput arithmetic for the benchmark rows. Latencies are kept as raw samples (a
// run holds at most a few hundred thousand numbers), so percentiles are exact, not bucketed.

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of an ascending array (q in 0..1). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const s = [...samples].sort((a, b) => a - b);
  const sum = s.reduce((a, b) => a + b, 0);
  return {
    count: s.length,
    p50: round(percentile(s, 0.5)),
    p90: round(percentile(s, 0.9)),
    p99: round(percentile(s, 0.99)),
    max: round(s[s.length - 1] ?? Number.NaN),
    mean: round(s.length ? sum / s.length : Number.NaN),
  };
}

export function round(n: number, digits = 2): number {
  if (!Number.isFinite(n)) return n;
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Operations per second over a wall-clock interval in milliseconds. */
export function perSecond(count: number, ms: number): number {
  return ms > 0 ? round((count * 1000) / ms, 1) : Number.NaN;
}

/** ours / ceiling, where both are "higher is better" (throughputs). */
export function throughputRatio(ours: number, ceiling: number): number {
  return ceiling > 0 ? round(ours / ceiling, 3) : Number.NaN;
}

/** ceiling / ours, where both are latencies ("lower is better"), so 1.0 means "as fast as direct". */
export function latencyRatio(ours: number, ceiling: number): number {
  return ours > 0 ? round(ceiling / ours, 3) : Number.NaN;
}
