// The fault suite's environment: its own MySQL shard databases and PostgreSQL database on the shared
// servers (only its own connections are ever killed there), its own Kafka broker and ClickHouse server
// (privateEngines.ts, stopped and started freely), migrated once here so the role processes start on
// an up-to-date schema. `childEnv()` renders the settings as the environment variables of
// src/config/settings.ts, so every role process reads exactly the same configuration.
import { settingsTable, settingsToEnv, type Settings } from '../../../src/config/settings';
import { migrateAll } from '../../../src/app/migrateAll';
import { openResources, type Resources } from '../../../src/app/resources';
import { createDatabases, dropDatabases, testSettings, uniqueSuffix } from '../../support/testEnv';
import { startPrivateEngines, sweepAbandonedRuns, type PrivateEngines } from './privateEngines';

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
 * Settings tuned so recovery is quick and nothing is parked by an outage the suite causes on purpose:
 * short poll intervals and leases (a SIGKILLed relay's claim expires in seconds), bounded backoff that
 * rides out a Kafka outage of a couple of minutes before parking, small projector batches.
 */
export const FAULT_TUNING: Partial<Settings> = {
  relayBatchSize: 100,
  relayPollIntervalMs: 100,
  relayLeaseMs: 4000,
  relayPublishTimeoutMs: 2000,
  relayBackoffBaseMs: 200,
  relayBackoffMaxMs: 2000,
  relayMaxAttempts: 100,
  kafkaFirstRelayMaxAttempts: 100,
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

export async function createFaultEnv(log: (l: string) => void, overrides: Partial<Settings> = {}): Promise<FaultEnv> {
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
  const { engines, settings } = await startPrivateEngines(base, runId, log);
  try {
    await createDatabases(settings);
    const resources = openResources(settings);
    await migrateAll(resources);
    return {
      runId,
      settings,
      engines,
      resources,
      childEnv(extra = {}) {
        const env: NodeJS.ProcessEnv = {};
        // Start from the machine's environment minus every Tidemark setting, so nothing leaks in.
        const ours = new Set(Object.values(settingsTable).map((d) => d.env));
        for (const [k, v] of Object.entries(process.env)) if (!ours.has(k)) env[k] = v;
        return { ...env, ...settingsToEnv({ ...settings, ...extra }), STACK_MANAGE: 'false', LOG_LEVEL: extra.logLevel ?? 'info' };
      },
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
