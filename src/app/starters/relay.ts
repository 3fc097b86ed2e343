// The relay role: the one relay engine (relayEngine.ts) over both publication tables of every store,
// whatever each domain's strategy, so rows left behind by a strategy switch are still delivered (an
// empty table costs one cheap look a poll). Per store:
//   outbox_events       RELAY_LOOPS_PER_STORE loops sharing a backlog signal (the first polls, the
//                       others wake when a claim comes back full), plus gauges and SENT cleanup;
//   event_publications  one loop (fallback rows are rare) and its backlog gauges.
// Every loop of the process shares one idempotent Kafka producer and the process's Kafka circuit: an
// outage stops them all at once and one probe resumes them all.
import type { RoleStarter } from '../roles';
import { kafkaFirstMetrics } from '../../publication/kafkaFirst/metrics';
import { domainStores } from '../wiring/domainStores';
import { randomIds, systemClock } from '../../shared/clock';
import { TidemarkError } from '../../shared/errors';
import { repeatEvery, type Stoppable } from '../../shared/lifecycle';
import { summarizeError } from '../../shared/redact';
import { exponentialBackoff } from '../../shared/backoff';
import { backlogSignal } from '../../relay/backlogSignal';
import { fromKafkaSink } from '../../relay/kafkaSink';
import { fromPublicationsTable, refreshBacklogGauges } from '../../publication/kafkaFirst/publicationsTable';
import { startOutboxMaintenance } from '../../relay/outbox/maintenance';
import { outboxMetrics } from '../../publication/outbox/metrics';
import { fromOutboxTable } from '../../publication/outbox/outboxTable';
import { outboxRelayMetrics, publicationsRelayMetrics } from '../../relay/relayMetrics';
import { relayProblems, type RelayDeps } from '../../relay/relayDeps';
import { startRelayLoop } from '../../relay/relayLoop';

export const startRelays: RoleStarter = async ({ resources, logger, registry, instanceId, stateChanges, kafkaCircuit }) => {
  const s = resources.settings;
  const common = { leaseMs: s.relayLeaseMs, publishTimeoutMs: s.relayPublishTimeoutMs };
  const problems = [
    ...relayProblems({ ...common, batchSize: s.relayBatchSize, pollIntervalMs: s.relayPollIntervalMs }),
    ...relayProblems({ ...common, batchSize: s.kafkaFirstRelayBatchSize, pollIntervalMs: s.kafkaFirstRelayPollIntervalMs }),
  ];
  if (problems.length) throw new TidemarkError('CONFIG_INVALID', `relay: ${problems.join('; ')}`, { retriable: false });
  const log = logger.child({ component: 'relay' });
  const sink = fromKafkaSink(resources.kafka, { timeoutMs: s.relayPublishTimeoutMs });
  const backoff = { baseMs: s.relayBackoffBaseMs, maxMs: s.relayBackoffMaxMs };
  const base: Omit<RelayDeps, 'policy' | 'batchSize' | 'pollIntervalMs' | 'metrics'> = {
    ...common,
    sink,
    circuit: kafkaCircuit,
    giveUpAgeMs: s.relayGiveUpAgeHours * 3600_000,
    storeBackoff: exponentialBackoff({
      baseMs: s.relayOutageBackoffBaseMs,
      maxMs: s.relayOutageBackoffMaxMs,
      maxAttempts: Number.POSITIVE_INFINITY,
    }),
    owner: instanceId,
    ids: randomIds,
    clock: systemClock,
    logger: log,
    stateChanges,
  };
  const outbox: Omit<RelayDeps, 'metrics'> = {
    ...base,
    policy: exponentialBackoff({ ...backoff, maxAttempts: s.relayMaxAttempts }),
    batchSize: s.relayBatchSize,
    pollIntervalMs: s.relayPollIntervalMs,
  };
  const publications: Omit<RelayDeps, 'metrics'> = {
    ...base,
    policy: exponentialBackoff({ ...backoff, maxAttempts: s.kafkaFirstRelayMaxAttempts }),
    batchSize: s.kafkaFirstRelayBatchSize,
    pollIntervalMs: s.kafkaFirstRelayPollIntervalMs,
  };
  const kfMetrics = kafkaFirstMetrics(registry);
  const stores = domainStores(resources);
  const running: Stoppable[] = stores.flatMap((store) => {
    const backlog = backlogSignal();
    const outboxDeps = { ...outbox, metrics: outboxRelayMetrics(registry, store) };
    const warn = (what: string) => (err: unknown) =>
      log.warn({ store: store.name, error: summarizeError(err) }, `${what} failed; will retry`);
    return [
      ...Array.from({ length: s.relayLoopsPerStore }, (_, i) =>
        startRelayLoop(fromOutboxTable(store), outboxDeps, { backlog, helper: i > 0 }),
      ),
      startRelayLoop(fromPublicationsTable(store), { ...publications, metrics: publicationsRelayMetrics(registry, store) }),
      startOutboxMaintenance({
        store,
        metrics: outboxMetrics(registry),
        logger: log,
        retentionMs: s.outboxRetentionHours * 3600_000,
        cleanupIntervalMs: s.outboxCleanupIntervalMs,
        cleanupBatchSize: s.outboxCleanupBatchSize,
        statsIntervalMs: s.outboxStatsIntervalMs,
      }),
      repeatEvery(s.kafkaFirstStatsIntervalMs, () => refreshBacklogGauges(store, kfMetrics), warn('event_publications gauges')),
    ];
  });
  log.info(
    { stores: stores.map((x) => x.name), loopsPerStore: s.relayLoopsPerStore },
    'relays started (outbox_events and event_publications)',
  );
  return {
    async stop() {
      await Promise.all(running.map((r) => r.stop()));
      await sink.close();
    },
  };
};
