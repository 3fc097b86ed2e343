// The operations kit names only metrics Tidemark exports: every expression of the alert rules
// (ops/prometheus/alerts.yml) and of the Grafana dashboard (ops/grafana/tidemark.json) is read, its
// metric names are taken out, and each must be registered by a process running every role (its
// /metrics lists every registered metric, with or without samples yet). The dashboard must also be
// valid JSON with a Prometheus target per panel.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { repoRoot } from '../../src/devstack/stack';
import { createTestEnv, type TestEnv } from '../support/testEnv';

/** Metric names in a PromQL expression (label names, functions and keywords are not followed by `{`, `[` or a comparison). */
export function metricNames(expr: string): string[] {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""');
  const withoutGrouping = withoutStrings.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = withoutGrouping.match(/\b(tidemark_[a-z0-9_]+|nodejs_[a-z0-9_]+|process_[a-z0-9_]+|up)\b/g) ?? [];
  return [...new Set(names.map((n) => n.replace(/_(bucket|count|sum)$/, '')))];
}

describe('operations kit', () => {
  let env: TestEnv;
  let app: Tidemark;
  let exported: Set<string>;

  beforeAll(async () => {
    env = await createTestEnv();
    app = await startTidemark({ ...env.settings }, { migrate: false });
    const text = await (await fetch(`${app.ops.url}/metrics`)).text();
    exported = new Set(
      text
        .split('\n')
        .filter((l) => l.startsWith('# TYPE '))
        .map((l) => l.split(' ')[2]!),
    );
    exported.add('up'); // Prometheus's own series for every scrape target
  }, 120000);
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  it('takes metric names out of PromQL', () => {
    expect(metricNames('max by (store) (tidemark_outbox_events{status="PARKED"}) > 0 or up{job="tidemark"} == 0')).toEqual([
      'tidemark_outbox_events',
      'up',
    ]);
    expect(metricNames('histogram_quantile(0.99, sum by (le) (rate(tidemark_projector_flush_duration_seconds_bucket[5m])))')).toEqual([
      'tidemark_projector_flush_duration_seconds',
    ]);
  });

  it('alert rules name only exported metrics', () => {
    const rules = (
      parse(readFileSync(join(repoRoot, 'ops/prometheus/alerts.yml'), 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] }
    ).groups.flatMap((g) => g.rules);
    expect(rules.length).toBeGreaterThanOrEqual(10);
    for (const r of rules) {
      const names = metricNames(r.expr);
      expect({ alert: r.alert, names: names.length > 0 }).toEqual({ alert: r.alert, names: true });
      expect({ alert: r.alert, unknown: names.filter((n) => !exported.has(n)) }).toEqual({ alert: r.alert, unknown: [] });
    }
  });

  it('the dashboard is valid JSON whose every panel queries exported metrics', () => {
    const dash = JSON.parse(readFileSync(join(repoRoot, 'ops/grafana/tidemark.json'), 'utf8')) as {
      uid: string;
      panels: { type: string; title: string; targets?: { expr: string }[] }[];
    };
    expect(dash.uid).toBe('tidemark');
    const panels = dash.panels.filter((p) => p.type !== 'row');
    expect(panels.length).toBeGreaterThanOrEqual(15);
    for (const p of panels) {
      expect({ panel: p.title, targets: (p.targets ?? []).length > 0 }).toEqual({ panel: p.title, targets: true });
      const names = p.targets!.flatMap((t) => metricNames(t.expr));
      expect({ panel: p.title, unknown: names.filter((n) => !exported.has(n)) }).toEqual({ panel: p.title, unknown: [] });
    }
  });

  it('exports the build info and the standard Node.js process metrics', () => {
    for (const m of ['tidemark_build_info', 'nodejs_eventloop_lag_p99_seconds', 'process_cpu_seconds_total']) expect(exported).toContain(m);
  });
});
