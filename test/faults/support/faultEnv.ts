// The fault suite's environment: its own MySQL shard databases and PostgreSQL database on the shared
// servers (only its own connections are ever killed there), its own Kafka broker and ClickHouse server
// (privateEngines.ts, stopped and started freely), migrated once here so the role processes start on
// an up-to-date schema. `childEnv()` renders the settings as the environment variables of
// src/config/settings.ts, so every role process reads exactly the same configuration.
import { settingsToEnv, type Settings } from '../../../src/config/settings';
import { migrateAll } from '../../../src/app/migrateAll';
import { openResources, type Resources } from '../../../src/app/resources';
import { createDatabases, dropDatabases, testSettings, uniqueSuffix } from '../../support/testEnv';
import { roleProcessEnv } from './roleProcesses';
import { startPrivateEngines, sweepAbandonedRuns, type PrivateEngineOptions, type PrivateEngines } from './privateEngines';

export interface FaultEnv {
  runId: string;
  settings: Settings;
  engines: PrivateEngines;
  /** The suite's own connections (checks, poison, oracle); never killed by a fault. */
  resources: Resources;
  childEnv(extra?: Partial<Settings>): NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

/**
 * Settings that only shorten waits, so recovery is quick: short poll intervals and leases (a SIGKILLed
 * relay's claim expires in seconds), small projector batches. Attempt limits and retry backoff are the
 * production defaults (RELAY_MAX_ATTEMPTS, KAFKA_FIRST_RELAY_MAX_ATTEMPTS, RELAY_BACKOFF_*): an outage
 * the suite causes must heal under exactly the rules a deployment runs with, never wider ones.
 */
export const FAULT_TUNING: Partial<Settings> = {
  relayBatchSize: 100,
  relayPollIntervalMs: 100,
  relayLeaseMs: 4000,
  relayPublishTimeoutMs: 2000,
  kafkaFirstRelayPollIntervalMs: 200,
  kafkaFirstStatsIntervalMs: 1000,
  outboxStatsIntervalMs: 1000,
  publicationReconcilerGraceMs: 20000,
  publicationReconcilerIntervalMs: 2000,
  projectorBatchSize: 200,
  projectorFlushIntervalMs: 100,
  projectorRetryBaseMs: 200,
  projectorRetryMaxMs: 1000,
  freshnessCacheMs: 0,
  freshnessStaleAfterMs: 15000,
  kafkaPartitions: 3,
  dbPoolMax: 8,
};

export { settingsToEnv };

export async function createFaultEnv(
  log: (l: string) => void,
  overrides: Partial<Settings> = {},
  engineOptions: PrivateEngineOptions = {},
): Promise<FaultEnv> {
  await sweepAbandonedRuns(log);
  const runId = uniqueSuffix();
  // Names carry the run id (tidemark_f_<run>_...), so an abandoned run's databases can be found again.
  const base = testSettings({
    ...FAULT_TUNING,
    ...overrides,
    kafkaTopicPrefix: `tidemark-f-${runId}`,
    fitnessShardDatabases: [`tidemark_f_${runId}_f0`, `tidemark_f_${runId}_f1`],
    pgDatabase: `tidemark_f_${runId}_o`,
    clickhouseDatabase: `tidemark_f_${runId}`,
  });
  const { engines, settings } = await startPrivateEngines(base, runId, log, engineOptions);
  try {
    await createDatabases(settings);
    const resources = openResources(settings);
    await migrateAll(resources);
    return {
      runId,
      settings,
      engines,
      resources,
      childEnv: (extra = {}) => roleProcessEnv({ ...settings, ...extra }),
      async cleanup() {
        await resources.close();
        await dropDatabases(settings).catch(() => undefined);
        await engines.destroy();
      },
    };
  } catch (err) {
    await engines.destroy();
    throw err;
  }
}
