// The relay role's outbox part: RELAY_LOOPS_PER_STORE relay loops and one maintenance loop per store
// that has an outbox (every fitness shard, and the PostgreSQL orders store), sharing one idempotent
// Kafka producer per process. A single loop waits on the database or the broker most of the time
// (claim, then publish, then complete, in sequence); a second loop overlaps those waits, and their
// claims never overlap (SKIP LOCKED), exactly as between relay processes. Only the first loop polls
// an idle store; the others wake when a claim comes back full (a backlog) and sleep once it is gone.
// Relays run on every store whatever the publication strategy, so rows left behind by a strategy
// switch are still delivered (an empty outbox costs three index probes a poll).
import type { RoleStarter } from '../../app/roles';
import { exponentialBackoff } from '../backoff';
import { fromKafkaSink } from './kafkaSink';
import { startOutboxMaintenance } from './maintenance';
import { outboxMetrics } from './metrics';
import { outboxStoresOf } from './operator';
import { backlogSignal } from './backlogSignal';
import { startOutboxRelay, validateRelayOptions } from './relay';

export const startOutboxRelays: RoleStarter = async ({ resources, logger, registry, instanceId, stateChanges }) => {
  const s = resources.settings;
  const tuning = { batchSize: s.relayBatchSize, pollIntervalMs: s.relayPollIntervalMs, leaseMs: s.relayLeaseMs, publishTimeoutMs: s.relayPublishTimeoutMs };
  validateRelayOptions(tuning);
  const metrics = outboxMetrics(registry);
  const policy = exponentialBackoff({ baseMs: s.relayBackoffBaseMs, maxMs: s.relayBackoffMaxMs, maxAttempts: s.relayMaxAttempts });
  const sink = fromKafkaSink(resources.kafka, { timeoutMs: s.relayPublishTimeoutMs });
  const log = logger.child({ component: 'outbox-relay' });
  const stores = outboxStoresOf(resources.mysql, resources.pg);
  const running = stores.flatMap((store) => [
    ...(() => {
      const backlog = backlogSignal();
      return Array.from({ length: s.relayLoopsPerStore }, (_, i) => startOutboxRelay({ ...tuning, store, sink, policy, owner: instanceId, metrics, logger: log, stateChanges, backlog, helper: i > 0 }));
    })(),
    startOutboxMaintenance({
      store,
      metrics,
      logger: log,
      retentionMs: s.outboxRetentionHours * 3600_000,
      cleanupIntervalMs: s.outboxCleanupIntervalMs,
      cleanupBatchSize: s.outboxCleanupBatchSize,
      statsIntervalMs: s.outboxStatsIntervalMs,
    }),
  ]);
  log.info({ stores: stores.map((x) => `${x.kind}-${x.shard}`) }, 'outbox relays started');
  return {
    async stop() {
      await Promise.all(running.map((r) => r.stop()));
      await sink.close();
    },
  };
};
