// Projector metrics (Prometheus, bounded labels: domain, outcome, reason, table, partition), and the
// flush buffer's observer that keeps them.
import type { Registry } from 'prom-client';
import { counter, gauge, histogram } from '../metrics/registry';
import type { Logger } from '../shared/logger';
import { summarizeError } from '../shared/redact';
import type { FlushObserver } from './flushBuffer';

export function projectorMetrics(r: Registry) {
  return {
    events: counter(r, {
      name: 'tidemark_projector_events_total',
      help: 'Events the projector consumed, by domain and outcome (applied | dead_lettered).',
      labelNames: ['domain', 'outcome'],
    }),
    deadLetters: counter(r, {
      name: 'tidemark_projector_dead_letters_total',
      help: 'Messages sent to the dead-letter topic, by domain and reason.',
      labelNames: ['domain', 'reason'],
    }),
    expiredOffsets: counter(r, {
      name: 'tidemark_projector_expired_offsets_total',
      help: 'Offsets Kafka deleted (retention) before the projector applied them, by domain: events lost to the read model until reconciled.',
      labelNames: ['domain'],
    }),
    refilled: counter(r, {
      name: 'tidemark_projector_refilled_offsets_total',
      help: 'Offsets re-applied because the read model lost what had been applied (emptied, restored from an older copy), by domain.',
      labelNames: ['domain'],
    }),
    rows: counter(r, {
      name: 'tidemark_projector_rows_inserted_total',
      help: 'Rows inserted into ClickHouse (acknowledged), by table.',
      labelNames: ['table'],
    }),
    flushes: counter(r, {
      name: 'tidemark_projector_flushes_total',
      help: 'Flush attempts, by outcome (ok | failed).',
      labelNames: ['outcome'],
    }),
    flushSeconds: histogram(r, {
      name: 'tidemark_projector_flush_duration_seconds',
      help: 'Time of one successful flush (inserts, dead letters, checkpoints).',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    }),
    paused: gauge(r, {
      name: 'tidemark_projector_paused',
      help: '1 while the projector holds its partitions because a flush keeps failing (ClickHouse or dead-letter topic unavailable).',
    }),
    lag: gauge(r, {
      name: 'tidemark_projection_lag_messages',
      help: 'Messages behind the log end after the last applied batch, by domain and partition.',
      labelNames: ['domain', 'partition'],
    }),
    appliedCommit: gauge(r, {
      name: 'tidemark_projection_applied_commit_seconds',
      help: 'Source commit time (unix seconds) of the newest event applied, by domain.',
      labelNames: ['domain'],
    }),
  };
}

export type ProjectorMetrics = ReturnType<typeof projectorMetrics>;

/** The flush buffer's observer: flush counts and times, rows per table, and the failures of an outage. */
export function flushObserver(metrics: ProjectorMetrics, log: Logger): FlushObserver {
  let failures = 0;
  return {
    flushed(batch, ms) {
      metrics.flushes.inc({ outcome: 'ok' });
      metrics.flushSeconds.observe(ms / 1000);
      for (const [table, rows] of batch.rows) if (rows.length) metrics.rows.inc({ table }, rows.length);
      if (failures) log.info({ failedAttempts: failures }, 'flush succeeded again; consumption resumed');
      failures = 0;
    },
    failed(err, attempt) {
      failures = attempt;
      metrics.flushes.inc({ outcome: 'failed' });
      // First failure and then every tenth: an outage must be visible but not flood the log.
      if (attempt === 1 || attempt % 10 === 0)
        log.warn({ attempt, error: summarizeError(err) }, 'flush failed; holding partitions and retrying');
    },
    paused: (p) => metrics.paused.set(p ? 1 : 0),
  };
}
