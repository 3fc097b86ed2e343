// Integration-test environment: every suite gets its own uniquely named MySQL shard databases,
// PostgreSQL database, ClickHouse database and Kafka topic prefix, migrated through the real
// migrations, and dropped again in `cleanup()`. Suites therefore never share state, even when jest
// runs them in parallel against the same engines. The shards live on two MariaDB servers (the
// machine's and the stack's second one), so every suite exercises shards on separate servers.
import { randomBytes } from 'node:crypto';
import { loadSettings, LOCAL_CLICKHOUSE_READER, type Settings } from '../../src/config/settings';
import { migrateAll } from '../../src/app/migrateAll';
import { openResources, type Resources } from '../../src/app/resources';
import { fromClickHouse } from '../../src/infra/clickhouse/fromClickHouse';
import { clickhouseLayout, dropDatabaseStatement } from '../../src/infra/clickhouse/layout';
import { postgresKnex } from '../../src/infra/postgres/fromPostgres';
import type { RoleDeps } from '../../src/app/roles';
import { readinessProbe } from '../../src/app/readiness';
import { alwaysClosedCircuit } from '../../src/infra/kafka/kafkaCircuit';
import { createRegistry } from '../../src/metrics/registry';
import { discardStateChanges } from '../../src/publication/stateChanges/stateChange';
import { ownEmbeddedClickHouse } from './embeddedClickHouse';
import { testLogger, testLogLevel } from './logCapture';
import { fixedSchemaVersionGate } from '../../src/publication/schemaVersionGate';
import { TEST_JWT_SECRET } from './testSecret';
import { onShardServers, testShards } from './testShards';

export { TEST_JWT_SECRET };

export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

/**
 * Settings for a test: silent logs (unless the run captures them: logCapture.ts), ephemeral port,
 * unique database and topic names. With the embedded ClickHouse (npm run test:engines) each test
 * process gets a data directory of its own: libchdb lets one process at a time open a directory, and
 * jest runs suites in several worker processes.
 */
export function testSettings(overrides: Partial<Settings> = {}, env: NodeJS.ProcessEnv = process.env): Settings {
  const id = uniqueSuffix();
  const base = loadSettings({ ...env, TIDEMARK_ENV: 'test', LOG_LEVEL: testLogLevel(env) });
  return {
    ...base,
    ...ownEmbeddedClickHouse(base),
    httpPort: 0,
    opsPort: 0,
    // Overridden shard databases (the fault suite's) are placed on the servers the same way.
    ...testShards(overrides.fitnessShardDatabases ?? [`tidemark_t_${id}_f0`, `tidemark_t_${id}_f1`], base),
    pgDatabase: `tidemark_t_${id}_o`,
    clickhouseDatabase: `tidemark_t_${id}`,
    kafkaTopicPrefix: `tidemark-t-${id}`,
    kafkaPartitions: 3,
    stackManage: false,
    authJwtSecret: TEST_JWT_SECRET,
    authJwksUrl: undefined,
    // tokenFor(s, 'service') signs subject test-service: the trusted backend most suites write as.
    authServiceSubjects: ['test-service'],
    // Per-caller limits off: suites drive one principal far harder than a person would; the suites
    // that test the limits (test/security) set them.
    rateLimitPerSecond: 0,
    rateLimitConcurrent: 0,
    rateLimitServicePerSecond: 0,
    rateLimitServiceConcurrent: 0,
    wsMaxConnectionsPerPrincipal: 0,
    wsMaxOperationsPerSocket: 0,
    // The gateway reads as the local stack's read-only ClickHouse user, as a careful deployment does
    // (every e2e read proves the reader is enough); an explicit CLICKHOUSE_READ_USER wins.
    ...(base.clickhouseEngine === 'server' && !env.CLICKHOUSE_READ_USER
      ? { clickhouseReadUser: LOCAL_CLICKHOUSE_READER.user, clickhouseReadPassword: LOCAL_CLICKHOUSE_READER.password }
      : {}),
    ...overrides,
  };
}

export async function createDatabases(s: Settings): Promise<void> {
  await onShardServers(s, 'CREATE DATABASE IF NOT EXISTS ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_bin');
  const pg = postgresKnex(s, 'postgres', 1);
  try {
    const exists = await pg.raw('SELECT 1 FROM pg_database WHERE datname = ?', [s.pgDatabase]);
    if (exists.rows.length === 0) await pg.raw('CREATE DATABASE ??', [s.pgDatabase]);
  } finally {
    await pg.destroy();
  }
}

export async function dropDatabases(s: Settings): Promise<void> {
  await onShardServers(s, 'DROP DATABASE IF EXISTS ??');
  const pg = postgresKnex(s, 'postgres', 1);
  try {
    await pg.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [s.pgDatabase]);
  } finally {
    await pg.destroy();
  }
  const ch = fromClickHouse(s, { database: null });
  try {
    await ch.command({ query: dropDatabaseStatement(clickhouseLayout(s), s.clickhouseDatabase) });
  } finally {
    await ch.close();
  }
}

export async function dropTopics(r: Resources): Promise<void> {
  const admin = r.kafka.admin();
  await admin.connect();
  try {
    const mine = (await admin.listTopics()).filter((t) => t.startsWith(`${r.settings.kafkaTopicPrefix}.`));
    if (mine.length) await admin.deleteTopics({ topics: mine, timeout: 10000 });
  } catch {
    // Topic deletion is best effort: names are unique per suite, so leftovers never collide.
  } finally {
    await admin.disconnect();
  }
}

export interface TestEnv {
  settings: Settings;
  resources: Resources;
  cleanup(): Promise<void>;
}

/** Creates, migrates and opens a private environment on the real engines. */
export async function createTestEnv(overrides: Partial<Settings> = {}, opts: { migrate?: boolean } = {}): Promise<TestEnv> {
  const settings = testSettings(overrides);
  await createDatabases(settings);
  const resources = openResources(settings);
  if (opts.migrate ?? true) await migrateAll(resources);
  return {
    settings,
    resources,
    async cleanup() {
      await dropTopics(resources);
      await resources.close();
      await dropDatabases(settings);
    },
  };
}

/** The dependencies a role starter receives, for starting one role of a test environment in-process. */
export function testRoleDeps(env: { resources: Resources }, over: Partial<RoleDeps> = {}): RoleDeps {
  return {
    resources: env.resources,
    logger: testLogger(),
    registry: createRegistry(false),
    instanceId: 'test',
    stateChanges: discardStateChanges,
    kafkaCircuit: alwaysClosedCircuit,
    readiness: readinessProbe(env.resources, { roles: env.resources.settings.roles }),
    reconciliation: () => {
      throw new Error('testRoleDeps: pass `reconciliation` (and stop it) to start a role that reconciles');
    },
    // Version 1, what every reader reads; a test of the gate passes its own (and stops it).
    schemaVersions: () => fixedSchemaVersionGate(),
    ...over,
  };
}
