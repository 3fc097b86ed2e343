// The publication reconciler for orders (kafka-first). It finds orders created on or before the cutoff
// (now - grace) that have no publication row (SQL anti-join, bounded batch, from its saved progress),
// asks DeliveryEvidence which of them were delivered anyway (the direct path leaves no row), and gives
// each remaining one a deterministic NOT_PUBLISHED row: the very event the direct path would have
// sent (order-placed:{orderId}:v1, same key and bytes), so the relay delivers it.
//
// This fixes the flaw of the design we learn from, whose reconciler rebuilt a row for every directly
// published order (so every order was sent twice): delivered orders are skipped, and progress is saved
// so each order is examined once. Rows and progress commit in one transaction; if the evidence cannot
// be read the batch is rolled back and retried later, never guessed.
import type { Knex } from 'knex';
import { orderPlacedEvent } from '../../domains/orders/events';
import type { Topics } from '../../infra/kafka/fromKafka';
import { counter, gauge, type Registry } from '../../metrics/registry';
import { publicationRestore } from '../../publication/kafkaFirst/restorePublications';
import type { StateChangeSink } from '../../publication/stateChanges/stateChange';
import type { Clock } from '../../shared/clock';
import { sleep, type Stoppable } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import { summarizeError } from '../../shared/redact';
import type { DeliveryEvidence } from './deliveryEvidence';
import { findOrdersWithoutPublications, type ScanPosition } from './findOrdersWithoutPublications';
import { ensureProgress, lockProgress, MAX_ORDER_ID, saveProgress } from './reconcilerProgress';

export interface OrderPublicationReconcilerDeps {
  db: Knex;
  evidence: DeliveryEvidence;
  topics: Topics;
  clock: Clock;
  graceMs: number;
  batchSize: number;
  registry: Registry;
  logger: Logger;
  stateChanges?: StateChangeSink;
  /** Progress row name; one per independent scan (default 'orders'). */
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
    orders: counter(r, {
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
  a.createdAt.getTime() !== b.createdAt.getTime() ? (a.createdAt > b.createdAt ? a : b) : a.orderId >= b.orderId ? a : b;

export async function reconcileOnce(deps: OrderPublicationReconcilerDeps): Promise<ReconcileResult> {
  const scope = deps.scope ?? 'orders';
  const m = reconcilerMetrics(deps.registry);
  const cutoff = new Date(deps.clock.now().getTime() - deps.graceMs);
  const restore = publicationRestore(deps.stateChanges, deps.clock);
  await ensureProgress(deps.db, scope);
  const result = await deps.db.transaction(async (trx): Promise<ReconcileResult> => {
    const r: ReconcileResult = { busy: false, caughtUp: false, examined: 0, reconstructed: 0, delivered: 0, alreadyPresent: 0, cutoff };
    const position = await lockProgress(trx, scope);
    if (!position) return { ...r, busy: true };
    const orders = await findOrdersWithoutPublications(trx, { cutoff, after: position, limit: deps.batchSize });
    r.examined = orders.length;
    const delivered = orders.length ? await deps.evidence.delivered(orders.map((o) => o.orderId)) : new Set<string>();
    for (const order of orders) {
      if (delivered.has(order.orderId)) {
        r.delivered++;
        continue;
      }
      const event = orderPlacedEvent(order);
      if (await restore.restore(trx, event, deps.topics)) r.reconstructed++;
      else r.alreadyPresent++;
    }
    r.caughtUp = orders.length < deps.batchSize;
    const last = orders[orders.length - 1];
    const next = r.caughtUp || !last ? { createdAt: cutoff, orderId: MAX_ORDER_ID } : { createdAt: last.createdAt, orderId: last.orderId };
    await saveProgress(trx, scope, later(position, next));
    m.lag.set({ domain: 'orders' }, Math.max(0, (deps.clock.now().getTime() - later(position, next).createdAt.getTime()) / 1000));
    return r;
  });
  if (result.reconstructed) m.orders.inc({ domain: 'orders', result: 'reconstructed' }, result.reconstructed);
  if (result.delivered) m.orders.inc({ domain: 'orders', result: 'delivered' }, result.delivered);
  if (result.alreadyPresent) m.orders.inc({ domain: 'orders', result: 'already_present' }, result.alreadyPresent);
  m.batches.inc({ domain: 'orders', result: result.busy ? 'busy' : 'ok' });
  restore.end();
  if (result.reconstructed)
    deps.logger.warn(
      { reconstructed: result.reconstructed, cutoff: cutoff.toISOString() },
      'reconciler rebuilt missing order publications',
    );
  return result;
}

/** Runs passes every `intervalMs`; a pass takes batches until caught up, busy, or `maxBatchesPerPass`. */
export function startOrderPublicationReconciler(
  deps: OrderPublicationReconcilerDeps & { intervalMs: number; maxBatchesPerPass?: number },
): Stoppable {
  const ac = new AbortController();
  const loop = (async () => {
    while (!ac.signal.aborted) {
      for (let i = 0; i < (deps.maxBatchesPerPass ?? 20) && !ac.signal.aborted; i++) {
        try {
          const r = await reconcileOnce(deps);
          if (r.busy || r.caughtUp) break;
        } catch (err) {
          reconcilerMetrics(deps.registry).batches.inc({ domain: 'orders', result: 'failed' });
          deps.logger.error({ error: summarizeError(err) }, 'publication reconciler batch failed; nothing was changed, retrying next pass');
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
