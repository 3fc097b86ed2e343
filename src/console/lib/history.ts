// Samples for the pipeline charts: one point per poll, kept for a window of minutes.
export interface Sample {
  /** Epoch milliseconds. */
  t: number;
  [series: string]: number | null;
}

export function appendSample(samples: readonly Sample[], s: Sample, windowMs: number): Sample[] {
  return [...samples.filter((x) => x.t > s.t - windowMs), s];
}
