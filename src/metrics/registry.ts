// One Prometheus registry per process. Components receive it and register their own metrics through
// `counter`/`gauge`/`histogram`, which return the existing metric when asked twice (several relays or
// test instances in one process share a registry without "already registered" errors).
import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

export { Registry };

export function createRegistry(withDefaults = true): Registry {
  const r = new Registry();
  // The standard names (process_cpu_seconds_total, nodejs_eventloop_lag_p99_seconds, ...), so the usual
  // Node.js dashboards and alerts work unchanged; Tidemark's own metrics are tidemark_*.
  if (withDefaults) collectDefaultMetrics({ register: r });
  return r;
}

export function counter<L extends string>(r: Registry, cfg: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
  return (r.getSingleMetric(cfg.name) as Counter<L> | undefined) ?? new Counter<L>({ ...cfg, registers: [r] });
}

export function gauge<L extends string>(r: Registry, cfg: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
  return (r.getSingleMetric(cfg.name) as Gauge<L> | undefined) ?? new Gauge<L>({ ...cfg, registers: [r] });
}

export function histogram<L extends string>(r: Registry, cfg: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
  return (r.getSingleMetric(cfg.name) as Histogram<L> | undefined) ?? new Histogram<L>({ ...cfg, registers: [r] });
}
