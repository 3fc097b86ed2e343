// The reconciler role's kafka-first publication reconciler, composed for src/app/roleStarters.ts: one per
// reconciled domain that runs the kafka-first strategy (under the outbox strategy every record has
// its row), reading delivery evidence from that domain's projection table.
import type { RoleDeps } from '../roles';
import { reconciledDomains } from '../../domains/reconciledDomains';
import type { Domain } from '../../publication/event';
import type { Strategy } from '../../publication/publisher';
import { systemClock } from '../../shared/clock';
import type { Stoppable } from '../../shared/lifecycle';
import { projectionMappingOf } from '../../reconciliation/target/projectionMapping';
import { fromClickHouseProjectionEvidence } from '../../reconciliation/publications/deliveryEvidence';
import { startKafkaFirstPublicationReconciler } from '../../reconciliation/publications/kafkaFirstPublicationReconciler';

export async function startKafkaFirstPublicationReconcilerRole(d: RoleDeps): Promise<Stoppable> {
  const s = d.resources.settings;
  const strategy: Record<Domain, Strategy> = { fitness: s.fitnessStrategy, orders: s.ordersStrategy };
  const started = reconciledDomains().flatMap((part) =>
    part.unpublished && strategy[part.domain] === 'kafka-first'
      ? [
          startKafkaFirstPublicationReconciler({
            part: { domain: part.domain, unpublished: part.unpublished },
            db: d.resources.pg,
            evidence: fromClickHouseProjectionEvidence(d.resources.clickhouse, s.clickhouseDatabase, projectionMappingOf(part.domain)),
            topics: d.resources.topics,
            clock: systemClock,
            graceMs: s.publicationReconcilerGraceMs,
            batchSize: s.publicationReconcilerBatchSize,
            intervalMs: s.publicationReconcilerIntervalMs,
            registry: d.registry,
            logger: d.logger.child({ component: 'publication-reconciler' }),
            stateChanges: d.stateChanges,
          }),
        ]
      : [],
  );
  return { stop: async () => void (await Promise.all(started.map((x) => x.stop()))) };
}
