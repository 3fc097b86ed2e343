// The `projector` role: builds the projector from settings and the process's shared resources.
import { projectorGroupId } from '../../projections/projectorGroup';
import type { RoleStarter } from '../roles';
import { exponentialBackoff } from '../../shared/backoff';
import { systemClock } from '../../shared/clock';
import { startProjector } from '../../projections/projector';
import { erasedGuardFrom } from '../wiring/erasedGuard';
import { readerVersions } from '../../projections/readerVersions';

export const startProjectorRole: RoleStarter = async ({ resources: r, logger, registry, stateChanges }) => {
  // Erased aggregates are dropped from every flush (docs/erasure.md): an event still in flight never brings one back.
  const erased = erasedGuardFrom(r, systemClock);
  erased.start();
  const projector = await startProjector({
    kafka: r.kafka,
    clickhouse: r.clickhouse,
    database: r.settings.clickhouseDatabase,
    topics: r.topics,
    groupId: projectorGroupId(r.settings),
    batchSize: r.settings.projectorBatchSize,
    flushIntervalMs: r.settings.projectorFlushIntervalMs,
    concurrentPartitions: r.settings.projectorConcurrentPartitions,
    // Never gives up: an unacknowledged flush is retried until ClickHouse answers or the role stops.
    retry: exponentialBackoff({
      baseMs: r.settings.projectorRetryBaseMs,
      maxMs: r.settings.projectorRetryMaxMs,
      maxAttempts: Number.POSITIVE_INFINITY,
    }),
    clock: systemClock,
    logger,
    registry,
    stateChanges,
    expiryWindowMarginMs: r.settings.projectorExpiryWindowMarginMs,
    checkpointCheckMs: r.settings.projectorCheckpointCheckMs,
    // A dead member's partitions move to the survivors after 10 s instead of kafkajs' default 30 s;
    // the projector heartbeats every 3 s even while a flush waits (see awaitWithHeartbeat).
    consumer: { sessionTimeout: 10000, heartbeatInterval: 1000 },
    erased,
    // What this deploy reads (EVENT_SCHEMA_VERSION_CAP pins it lower), announced to the group for the producers' gate.
    reads: readerVersions(r.settings),
  }).catch(async (err: unknown) => {
    await erased.stop();
    throw err;
  });
  return {
    async stop() {
      await projector.stop();
      await erased.stop();
    },
  };
};
