// The erasure metrics the alerts read (ops/prometheus/alerts.yml): erasures past their deadline,
// erasures whose verification found a trace, and the runner's passes by outcome. The gauges are read
// from the ledger at scrape time (every reconciler process reports the same deployment-wide numbers;
// the alerts take max()).
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import { counter, gauge } from '../metrics/registry';
import type { Clock } from '../shared/clock';
import { countErasureAlerts } from './ledger/sql/selectErasures';
import type { PassOutcome } from './runner';

export function erasureMetrics(registry: Registry, pg: Knex, clock: Clock): { onPass(outcome: PassOutcome): void } {
  let last: Promise<{ overdue: number; withFindings: number }> | undefined;
  // Both gauges are collected in one scrape: one query serves them.
  const counts = () => {
    last ??= countErasureAlerts(pg, clock.now()).finally(() => setTimeout(() => (last = undefined), 1000).unref());
    return last;
  };
  gauge(registry, {
    name: 'tidemark_erasures_overdue',
    help: 'Erasures not completed by their deadline (ERASURE_DEADLINE_HOURS after the request).',
    async collect() {
      this.set((await counts().catch(() => ({ overdue: 0 }))).overdue);
    },
  });
  gauge(registry, {
    name: 'tidemark_erasures_verification_findings',
    help: 'Unfinished erasures whose last verification found a readable trace of the person (they stay VERIFYING).',
    async collect() {
      this.set((await counts().catch(() => ({ withFindings: 0 }))).withFindings);
    },
  });
  const passes = counter<'outcome'>(registry, {
    name: 'tidemark_erasure_passes_total',
    help: 'Erasure runner passes by outcome: progress, waiting, findings, completed, failed.',
    labelNames: ['outcome'],
  });
  return { onPass: (outcome) => passes.inc({ outcome }) };
}
