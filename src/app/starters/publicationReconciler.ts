// The reconciler role's orders publication reconciler, composed for src/app/roleStarters.ts. It runs only
// while orders use the kafka-first strategy (under the outbox strategy every order has its row).
import type { RoleDeps } from '../roles';
import { systemClock } from '../../shared/clock';
import type { Stoppable } from '../../shared/lifecycle';
import { fromClickHouseOrdersEvidence } from '../../reconciliation/publications/deliveryEvidence';
import { startOrderPublicationReconciler } from '../../reconciliation/publications/orderPublicationReconciler';

export async function startOrderPublicationReconcilerRole(d: RoleDeps): Promise<Stoppable> {
  const s = d.resources.settings;
  if (s.ordersStrategy !== 'kafka-first') return { stop: async () => undefined };
  return startOrderPublicationReconciler({
    db: d.resources.pg,
    evidence: fromClickHouseOrdersEvidence(d.resources.clickhouse, s.clickhouseDatabase),
    topics: d.resources.topics,
    clock: systemClock,
    graceMs: s.publicationReconcilerGraceMs,
    batchSize: s.publicationReconcilerBatchSize,
    intervalMs: s.publicationReconcilerIntervalMs,
    registry: d.registry,
    logger: d.logger.child({ component: 'publication-reconciler' }),
    stateChanges: d.stateChanges,
  });
}
