// The one typed settings map. Every knob Tidemark reads comes from here: an environment variable, a
// default and a description. `loadSettings` validates all of them at start-up and fails fast with a
// message naming each bad variable; `.env.example` is generated from this table (npm run env:example).
import { z } from 'zod';

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const csv = z.string().transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));
const strategy = z.enum(['outbox', 'kafka-first']);
const roles = csv.pipe(z.array(z.enum(['gateway', 'relay', 'projector', 'reconciler'])).min(1));

interface Setting<S extends z.ZodType> {
  env: string;
  default: string | undefined;
  description: string;
  schema: S;
}
const setting = <S extends z.ZodType>(env: string, def: string | undefined, description: string, schema: S): Setting<S> => ({
  env,
  default: def,
  description,
  schema,
});

export const settingsTable = {
  env: setting('TIDEMARK_ENV', 'development', 'development | test | production. Development prints a local token and stack traces.', z.enum(['development', 'test', 'production'])),
  roles: setting('TIDEMARK_ROLES', 'gateway,relay,projector,reconciler', 'Roles this process runs (comma list of gateway, relay, projector, reconciler).', roles),
  instanceId: setting('TIDEMARK_INSTANCE_ID', undefined, 'Stable name of this process in claims and consumer groups; defaults to host-pid.', z.string().min(1).max(64).optional()),
  logLevel: setting('LOG_LEVEL', 'info', 'pino log level: fatal, error, warn, info, debug, trace, silent.', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])),

  httpHost: setting('HTTP_HOST', '127.0.0.1', 'Address the gateway binds (HTTP and WebSocket share it).', z.string().min(1)),
  httpPort: setting('HTTP_PORT', '4000', 'Port of GraphQL (/graphql), health (/healthz, /readyz) and metrics (/metrics).', int(0, 65535)),
  graphqlIntrospection: setting('GRAPHQL_INTROSPECTION', 'true', 'Allow schema introspection.', bool),
  graphqlExplorer: setting('GRAPHQL_EXPLORER', 'true', 'Serve the local GraphiQL explorer on GET /graphql (assets from node_modules, no CDN).', bool),

  mysqlHost: setting('MYSQL_HOST', '127.0.0.1', 'MySQL/MariaDB host of the fitness shards.', z.string().min(1)),
  mysqlPort: setting('MYSQL_PORT', '3306', 'MySQL/MariaDB port.', int(1, 65535)),
  mysqlUser: setting('MYSQL_USER', 'tidemark', 'MySQL user (the stack manager creates it locally).', z.string().min(1)),
  mysqlPassword: setting('MYSQL_PASSWORD', 'tidemark', 'MySQL password.', z.string()),
  fitnessShardDatabases: setting('FITNESS_SHARD_DATABASES', 'tidemark_fitness_0,tidemark_fitness_1', 'One MySQL database per fitness shard, in shard order. Changing the count re-routes data: see docs/sharding.md.', csv.pipe(z.array(z.string().regex(/^[A-Za-z0-9_]{1,64}$/)).min(1).max(64))),

  pgHost: setting('PG_HOST', '127.0.0.1', 'PostgreSQL host of the orders store.', z.string().min(1)),
  pgPort: setting('PG_PORT', '5432', 'PostgreSQL port.', int(1, 65535)),
  pgUser: setting('PG_USER', 'tidemark', 'PostgreSQL user (the stack manager creates it locally).', z.string().min(1)),
  pgPassword: setting('PG_PASSWORD', 'tidemark', 'PostgreSQL password.', z.string()),
  pgDatabase: setting('PG_DATABASE', 'tidemark_orders', 'PostgreSQL database of orders.', z.string().regex(/^[A-Za-z0-9_]{1,63}$/)),
  dbPoolMax: setting('DB_POOL_MAX', '16', 'Maximum connections per relational pool (per shard).', int(1, 1000)),

  kafkaBrokers: setting('KAFKA_BROKERS', '127.0.0.1:9092', 'Kafka bootstrap brokers (comma list).', csv.pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/)).min(1))),
  kafkaClientId: setting('KAFKA_CLIENT_ID', 'tidemark', 'Kafka client id.', z.string().min(1)),
  kafkaTopicPrefix: setting('KAFKA_TOPIC_PREFIX', 'tidemark', 'Prefix of every topic Tidemark creates (<prefix>.fitness-results, ...).', z.string().regex(/^[A-Za-z0-9._-]{1,100}$/)),
  kafkaPartitions: setting('KAFKA_PARTITIONS', '6', 'Partitions of each domain topic when Tidemark creates it.', int(1, 1000)),
  kafkaReplicationFactor: setting('KAFKA_REPLICATION_FACTOR', '1', 'Replication factor of topics Tidemark creates.', int(1, 10)),

  clickhouseUrl: setting('CLICKHOUSE_URL', 'http://127.0.0.1:8123', 'ClickHouse HTTP endpoint.', z.string().url()),
  clickhouseUser: setting('CLICKHOUSE_USER', 'default', 'ClickHouse user.', z.string().min(1)),
  clickhousePassword: setting('CLICKHOUSE_PASSWORD', '', 'ClickHouse password.', z.string()),
  clickhouseDatabase: setting('CLICKHOUSE_DATABASE', 'tidemark', 'ClickHouse database of the projections.', z.string().regex(/^[A-Za-z0-9_]{1,64}$/)),

  fitnessStrategy: setting('FITNESS_PUBLICATION_STRATEGY', 'outbox', 'How fitness events are published: outbox | kafka-first.', strategy),
  ordersStrategy: setting('ORDERS_PUBLICATION_STRATEGY', 'kafka-first', 'How order events are published: outbox | kafka-first.', strategy),

  relayBatchSize: setting('RELAY_BATCH_SIZE', '500', 'Rows one relay claim takes.', int(1, 10000)),
  relayPollIntervalMs: setting('RELAY_POLL_INTERVAL_MS', '200', 'Relay sleep when a claim found nothing.', int(1, 600000)),
  relayLeaseMs: setting('RELAY_LEASE_MS', '30000', 'Claim lease; must exceed RELAY_PUBLISH_TIMEOUT_MS so a slow healthy publish is not reclaimed.', int(100, 3600000)),
  relayPublishTimeoutMs: setting('RELAY_PUBLISH_TIMEOUT_MS', '10000', 'Kafka request timeout of one relay publish.', int(100, 600000)),
  relayMaxAttempts: setting('RELAY_MAX_ATTEMPTS', '8', 'Outbox publish attempts before an event is PARKED.', int(1, 1000)),
  relayBackoffBaseMs: setting('RELAY_BACKOFF_BASE_MS', '500', 'First retry delay; doubles per attempt with full jitter.', int(1, 3600000)),
  relayBackoffMaxMs: setting('RELAY_BACKOFF_MAX_MS', '60000', 'Upper bound of the retry delay.', int(1, 86400000)),
  outboxRetentionHours: setting('OUTBOX_RETENTION_HOURS', '72', 'SENT outbox rows older than this are deleted in bounded batches.', int(0, 87600)),

  authJwtSecret: setting('AUTH_JWT_SECRET', undefined, 'HS256 secret for bearer tokens (at least 32 characters). Unset in development: a random one is made and local tokens are printed.', z.string().min(32).optional()),
  authJwksUrl: setting('AUTH_JWKS_URL', undefined, 'JWKS endpoint to verify bearer tokens instead of a shared secret.', z.string().url().optional()),
  authIssuer: setting('AUTH_ISSUER', 'tidemark', 'Required `iss` claim of bearer tokens.', z.string().min(1)),
  authAudience: setting('AUTH_AUDIENCE', 'tidemark-gateway', 'Required `aud` claim of bearer tokens.', z.string().min(1)),
  graphqlMaxDepth: setting('GRAPHQL_MAX_DEPTH', '10', 'Deepest selection a GraphQL operation may have.', int(2, 100)),
  graphqlMaxCost: setting('GRAPHQL_MAX_COST', '5000', 'Highest estimated cost of one GraphQL operation (list fields multiply by their page size).', int(10, 10000000)),
  graphqlMaxPageSize: setting('GRAPHQL_MAX_PAGE_SIZE', '200', 'Largest page any list query returns (`first`).', int(1, 10000)),

  stackManage: setting('STACK_MANAGE', 'true', 'Let `npm start`/`npm test` install and start missing local engines (set false to use external ones).', bool),
  stackDir: setting('STACK_DIR', '.tidemark', 'Folder of local engine data, configs and logs (git-ignored).', z.string().min(1)),
} as const;

type Table = typeof settingsTable;
export type Settings = { [K in keyof Table]: z.output<Table[K]['schema']> };

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID' as const;
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates every setting; throws one ConfigError listing every problem. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Settings> = {}): Settings {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, s] of Object.entries(settingsTable) as [keyof Table, Setting<z.ZodType>][]) {
    if (key in overrides) {
      out[key] = overrides[key];
      continue;
    }
    const raw = env[s.env] ?? s.default;
    const parsed = s.schema.safeParse(raw);
    if (parsed.success) out[key] = parsed.data;
    else problems.push(`${s.env}=${JSON.stringify(raw ?? '')} is invalid (${parsed.error.issues.map((i) => i.message).join('; ')}). Set ${s.env}: ${s.description}`);
  }
  const settings = out as Settings;
  if (problems.length === 0) problems.push(...crossCheck(settings));
  if (problems.length) throw new ConfigError(problems);
  return settings;
}

function crossCheck(s: Settings): string[] {
  const p: string[] = [];
  if (s.relayLeaseMs <= s.relayPublishTimeoutMs)
    p.push(`RELAY_LEASE_MS (${s.relayLeaseMs}) must be greater than RELAY_PUBLISH_TIMEOUT_MS (${s.relayPublishTimeoutMs}), or a slow healthy publish is reclaimed and sent twice.`);
  if (s.relayBackoffMaxMs < s.relayBackoffBaseMs)
    p.push(`RELAY_BACKOFF_MAX_MS (${s.relayBackoffMaxMs}) must be at least RELAY_BACKOFF_BASE_MS (${s.relayBackoffBaseMs}).`);
  if (s.env === 'production' && !s.authJwtSecret && !s.authJwksUrl) p.push('Set AUTH_JWT_SECRET or AUTH_JWKS_URL: production needs a way to verify bearer tokens.');
  if (s.authJwtSecret && s.authJwksUrl) p.push('Set only one of AUTH_JWT_SECRET and AUTH_JWKS_URL.');
  if (new Set(s.fitnessShardDatabases).size !== s.fitnessShardDatabases.length) p.push('FITNESS_SHARD_DATABASES lists a database twice.');
  return p;
}

/** The body of `.env.example`: every setting with its description and default. */
export function renderEnvExample(): string {
  const lines = ['# Generated from src/config/settings.ts by `npm run env:example`. Do not edit by hand.', ''];
  for (const s of Object.values(settingsTable)) {
    lines.push(`# ${s.description}`);
    lines.push(s.default === undefined ? `# ${s.env}=` : `${s.env}=${s.default}`);
    lines.push('');
  }
  return lines.join('\n');
}
