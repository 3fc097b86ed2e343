// Each benchmark row runs on a fresh private environment: createTestEnv's unique MySQL shard
// databases, PostgreSQL database, ClickHouse database and Kafka topic prefix, migrated, and dropped
// again by cleanup(). Benchmarks keep the production defaults of everything else (6 partitions,
// pool sizes, batch sizes), so the figures describe an out-of-the-box deployment.
import { loadSettings, type Settings } from '../../src/config/settings';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';

export type BenchEnv = TestEnv;

export async function benchEnv(overrides: Partial<Settings> = {}): Promise<BenchEnv> {
  const defaults = loadSettings({ TIDEMARK_ENV: 'test' });
  // Per-caller limits off, as in childEnvFor: the rows measure capacity with one token each.
  const unlimited = { rateLimitPerSecond: 0, rateLimitConcurrent: 0, rateLimitServicePerSecond: 0, rateLimitServiceConcurrent: 0 };
  return createTestEnv({
    kafkaPartitions: defaults.kafkaPartitions,
    logLevel: 'warn',
    ...unlimited,
    wsMaxConnectionsPerPrincipal: 0,
    ...overrides,
  });
}

/**
 * Settings to try on our side of a row without editing code, for A/B runs: `BENCH_CHILD_<VARIABLE>=v`
 * in the bench's environment sets `<VARIABLE>=v` in every child (gateway, relay, projector).
 */
function childSettingsFromEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('BENCH_CHILD_') && v !== undefined) out[k.slice(12)] = v;
  return out;
}

/** The environment variables that point a child process (gateway, relay, projector) at `s`. */
export function childEnvFor(s: Settings, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TIDEMARK_ENV: 'test',
    STACK_MANAGE: 'false',
    // bench/lib/gateway.ts signs the rows' writers as this trusted backend.
    AUTH_SERVICE_SUBJECTS: 'bench-service,test-service',
    // The rows measure the gateway's capacity, not its per-caller limits (one token drives each row's
    // load and row 7 opens hundreds of sockets with one operator token): the limits are off here.
    RATE_LIMIT_PER_SECOND: '0',
    RATE_LIMIT_CONCURRENT: '0',
    RATE_LIMIT_SERVICE_PER_SECOND: '0',
    RATE_LIMIT_SERVICE_CONCURRENT: '0',
    WS_MAX_CONNECTIONS_PER_PRINCIPAL: '0',
    LOG_LEVEL: 'warn',
    HTTP_HOST: s.httpHost,
    MYSQL_HOST: s.mysqlHost,
    MYSQL_PORT: String(s.mysqlPort),
    MYSQL_USER: s.mysqlUser,
    MYSQL_PASSWORD: s.mysqlPassword,
    FITNESS_SHARD_DATABASES: s.fitnessShardDatabases.join(','),
    FITNESS_SHARDS: s.fitnessShards.join(','),
    PG_HOST: s.pgHost,
    PG_PORT: String(s.pgPort),
    PG_USER: s.pgUser,
    PG_PASSWORD: s.pgPassword,
    PG_DATABASE: s.pgDatabase,
    DB_POOL_MAX: String(s.dbPoolMax),
    KAFKA_BROKERS: s.kafkaBrokers.join(','),
    KAFKA_TOPIC_PREFIX: s.kafkaTopicPrefix,
    KAFKA_PARTITIONS: String(s.kafkaPartitions),
    CLICKHOUSE_URL: s.clickhouseUrl,
    CLICKHOUSE_USER: s.clickhouseUser,
    CLICKHOUSE_PASSWORD: s.clickhousePassword,
    CLICKHOUSE_DATABASE: s.clickhouseDatabase,
    AUTH_JWT_SECRET: s.authJwtSecret,
    AUTH_ISSUER: s.authIssuer,
    AUTH_AUDIENCE: s.authAudience,
    GRAPHQL_EXPLORER: 'false',
    // Every process serves /metrics on OPS_PORT; children of one bench (two gateways in row 1) must not share it.
    OPS_PORT: '0',
    ...childSettingsFromEnv(),
    ...extra,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env;
}
