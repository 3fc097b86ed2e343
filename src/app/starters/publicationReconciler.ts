// The reconciler role's kafka-first publication reconciler, composed for src/app/roleStarters.ts: one per
// reconciled domain that runs the kafka-first strategy (under the outbox strategy every record has
// its row), reading delivery evidence from that domain's projection table.
import type { RoleDeps } from '../roles';
import { domainModules } from '../../domains/registry';
import { strategyOf } from '../../domains/contract/domainModule';
import { systemClock } from '../../shared/clock';
import type { Stoppable } from '../../shared/lifecycle';
import { projectionMappingOf } from '../../reconciliation/target/projectionMapping';
import { fromClickHouseProjectionEvidence } from '../../reconciliation/publications/deliveryEvidence';
import { startKafkaFirstPublicationReconciler } from '../../reconciliation/publications/kafkaFirstPublicationReconciler';

export async function startKafkaFirstPublicationReconcilerRole(d: RoleDeps): Promise<Stoppable> {
  const s = d.resources.settings;
  // A domain whose rows need no publication row (kafka-first) and that can scan for rows without one;
  // the scan runs on the PostgreSQL store (the one store a kafka-first domain's scan is written for).
  const scanned = domainModules().filter((m) => strategyOf(s, m) === 'kafka-first' && m.store === 'postgres');
  const started = scanned.flatMap(({ reconciliation: part }) =>
    part.unpublished
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
            schemaVersions: d.schemaVersions(),
          }),
        ]
      : [],
  );
  return { stop: async () => void (await Promise.all(started.map((x) => x.stop()))) };
}
