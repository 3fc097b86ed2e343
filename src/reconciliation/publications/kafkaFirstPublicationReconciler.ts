// The kafka-first strategy's publication reconciler, for any domain that runs it (today: orders). It
// finds business rows created on or before the cutoff (now - grace) that have no publication row
// (the domain part's SQL anti-join, bounded batch, from its saved progress), asks DeliveryEvidence
// which of them were delivered anyway (the direct path leaves no row), and gives each remaining one a
// deterministic NOT_PUBLISHED row: the very event the direct path would have sent (for orders
// order-placed:{orderId}:v1, same key and bytes), so the relay delivers it.
//
// This fixes the flaw of the design we learn from, whose reconciler rebuilt a row for every directly
// published record (so every record was sent twice): delivered ones are skipped, and progress is saved
// so each record is examined once. Rows and progress commit in one transaction; if the evidence cannot
// be read the batch is rolled back and retried later, never guessed.
import type { Knex } from 'knex';
import type { ScanPosition, UnpublishedScan } from '../../domains/contract/reconciliation';
import type { Topics } from '../../infra/kafka/fromKafka';
import type { Domain } from '../../publication/event';
import { counter, gauge, type Registry } from '../../metrics/registry';
import { publicationRestore } from '../../publication/kafkaFirst/restorePublications';
import type { StateChangeSink } from '../../publication/stateChanges/stateChange';
import type { Clock } from '../../shared/clock';
import type { EventSchemaVersions } from '../../publication/schemaVersions';
import { sleep, type Stoppable } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import type { DeliveryEvidence } from './deliveryEvidence';
import { ensureProgress, LAST_ID, lockProgress, saveProgress } from './reconcilerProgress';

export interface KafkaFirstPublicationReconcilerDeps {
  /** The domain whose rows are scanned, and its scan: its reconciliation part (or those two facts of it). */
  part: { domain: Domain; unpublished: UnpublishedScan };
  db: Knex;
  evidence: DeliveryEvidence;
  topics: Topics;
  clock: Clock;
  graceMs: number;
  batchSize: number;
  registry: Registry;
  logger: Logger;
  stateChanges?: StateChangeSink;
  /** The schema version reconstructed events are built in (the process's gate; version 1 without one). */
  schemaVersions?: EventSchemaVersions;
  /** Progress row name; one per independent scan (default: the domain's name). */
  scope?: string;
}

export interface ReconcileResult {
  /** Another reconciler held the progress row; nothing was done. */
  busy: boolean;
  /** The scan reached the cutoff: nothing older is left to examine. */
  caughtUp: boolean;
  examined: number;
  reconstructed: number;
  delivered: number;
  alreadyPresent: number;
  cutoff: Date;
}

function reconcilerMetrics(r: Registry) {
  return {
    // The metric keeps its first name (dashboards and alerts know it); the domain label says whose rows.
    records: counter(r, {
      name: 'tidemark_publication_reconciler_orders_total',
      help: 'Orders without a publication row examined by the reconciler, by result: reconstructed, delivered (evidence, skipped), already_present.',
      labelNames: ['domain', 'result'],
    }),
    batches: counter(r, {
      name: 'tidemark_publication_reconciler_batches_total',
      help: 'Reconciler batches by result: ok, busy, failed.',
      labelNames: ['domain', 'result'],
    }),
    lag: gauge(r, {
      name: 'tidemark_publication_reconciler_lag_seconds',
      help: 'How far the reconciler progress is behind now (grace period included).',
      labelNames: ['domain'],
    }),
  };
}

const later = (a: ScanPosition, b: ScanPosition) =>
  a.createdAt.getTime() !== b.createdAt.getTime() ? (a.createdAt > b.createdAt ? a : b) : a.aggregateId >= b.aggregateId ? a : b;

export async function reconcileOnce(deps: KafkaFirstPublicationReconcilerDeps): Promise<ReconcileResult> {
  const domain = deps.part.domain;
  const scope = deps.scope ?? domain;
  const m = reconcilerMetrics(deps.registry);
  const cutoff = new Date(deps.clock.now().getTime() - deps.graceMs);
  const restore = publicationRestore(deps.stateChanges, deps.clock);
  await ensureProgress(deps.db, scope);
  const result = await deps.db.transaction(async (trx): Promise<ReconcileResult> => {
    const r: ReconcileResult = { busy: false, caughtUp: false, examined: 0, reconstructed: 0, delivered: 0, alreadyPresent: 0, cutoff };
    const position = await lockProgress(trx, scope);
    if (!position) return { ...r, busy: true };
    const found = await deps.part.unpublished.find(trx, {
      cutoff,
      after: position,
      limit: deps.batchSize,
      ...(deps.schemaVersions ? { schemaVersions: deps.schemaVersions } : {}),
    });
    r.examined = found.length;
    const delivered = found.length
      ? await deps.evidence.delivered(found.map((f) => ({ aggregateId: f.position.aggregateId, version: f.event.version })))
      : new Set<string>();
    for (const { position: at, event } of found) {
      if (delivered.has(at.aggregateId)) {
        r.delivered++;
        continue;
      }
      if (await restore.restore(trx, event, deps.topics)) r.reconstructed++;
      else r.alreadyPresent++;
    }
    r.caughtUp = found.length < deps.batchSize;
    const last = found[found.length - 1]?.position;
    const next = r.caughtUp || !last ? { createdAt: cutoff, aggregateId: LAST_ID } : last;
    await saveProgress(trx, scope, later(position, next));
    m.lag.set({ domain }, Math.max(0, (deps.clock.now().getTime() - later(position, next).createdAt.getTime()) / 1000));
    return r;
  });
  if (result.reconstructed) m.records.inc({ domain, result: 'reconstructed' }, result.reconstructed);
  if (result.delivered) m.records.inc({ domain, result: 'delivered' }, result.delivered);
  if (result.alreadyPresent) m.records.inc({ domain, result: 'already_present' }, result.alreadyPresent);
  m.batches.inc({ domain, result: result.busy ? 'busy' : 'ok' });
  restore.end();
  if (result.reconstructed)
    deps.logger.warn(
      { domain, reconstructed: result.reconstructed, cutoff: cutoff.toISOString() },
      'reconciler rebuilt missing publications',
    );
  return result;
}

/** Runs passes every `intervalMs`; a pass takes batches until caught up, busy, or `maxBatchesPerPass`. */
export function startKafkaFirstPublicationReconciler(
  deps: KafkaFirstPublicationReconcilerDeps & { intervalMs: number; maxBatchesPerPass?: number },
): Stoppable {
  const domain = deps.part.domain;
  const ac = new AbortController();
  const loop = (async () => {
    while (!ac.signal.aborted) {
      for (let i = 0; i < (deps.maxBatchesPerPass ?? 20) && !ac.signal.aborted; i++) {
        try {
          const r = await reconcileOnce(deps);
          if (r.busy || r.caughtUp) break;
        } catch (err) {
          reconcilerMetrics(deps.registry).batches.inc({ domain, result: 'failed' });
          deps.logger.error(
            { domain, error: summarizeError(err) },
            'publication reconciler batch failed; nothing was changed, retrying next pass',
          );
          break;
        }
      }
      await sleep(deps.intervalMs, ac.signal);
    }
  })();
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (ac.abort(), loop);
      return stopped;
    },
  };
}
