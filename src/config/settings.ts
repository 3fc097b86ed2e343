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
  relayLoopsPerStore: setting('RELAY_LOOPS_PER_STORE', '2', 'Claim-publish-complete loops per store in one relay process: while one publishes, another claims or completes (SKIP LOCKED keeps their rows disjoint).', int(1, 64)),
  relayPollIntervalMs: setting('RELAY_POLL_INTERVAL_MS', '50', 'Relay sleep when a claim found nothing (the wait a new event can add before it is claimed; an idle relay makes 1000/this claims per second per shard).', int(1, 600000)),
  relayLeaseMs: setting('RELAY_LEASE_MS', '30000', 'Claim lease; must exceed RELAY_PUBLISH_TIMEOUT_MS so a slow healthy publish is not reclaimed.', int(100, 3600000)),
  relayPublishTimeoutMs: setting('RELAY_PUBLISH_TIMEOUT_MS', '10000', 'Kafka request timeout of one relay publish.', int(100, 600000)),
  relayMaxAttempts: setting('RELAY_MAX_ATTEMPTS', '20', 'Outbox publish attempts before an event is PARKED (20 with the default backoff rides out a Kafka outage of about 10 minutes).', int(1, 1000)),
  relayBackoffBaseMs: setting('RELAY_BACKOFF_BASE_MS', '500', 'First retry delay; doubles per attempt with full jitter.', int(1, 3600000)),
  relayBackoffMaxMs: setting('RELAY_BACKOFF_MAX_MS', '60000', 'Upper bound of the retry delay.', int(1, 86400000)),
  outboxRetentionHours: setting('OUTBOX_RETENTION_HOURS', '72', 'SENT outbox rows older than this are deleted in bounded batches.', int(0, 87600)),
  outboxCleanupIntervalMs: setting('OUTBOX_CLEANUP_INTERVAL_MS', '60000', 'How often each relay process deletes expired SENT outbox rows.', int(100, 86400000)),
  outboxCleanupBatchSize: setting('OUTBOX_CLEANUP_BATCH_SIZE', '1000', 'SENT outbox rows deleted per statement (cleanup repeats until none are left).', int(1, 100000)),
  kafkaFirstPublishedRetentionHours: setting('KAFKA_FIRST_PUBLISHED_RETENTION_HOURS', '72', 'PUBLISHED event_publications rows (fallback rows the relay has since delivered) older than this are deleted; NOT_PUBLISHED and DEAD_LETTER rows never are.', int(1, 87600)),
  fitnessIdempotencyKeyRetentionHours: setting('FITNESS_IDEMPOTENCY_KEY_RETENTION_HOURS', '168', 'How long a fitness idempotency key (and the first response it replays) is kept: a retry within this window returns the first result; after it, the key is free again.', int(1, 87600)),
  retentionCleanupIntervalMs: setting('RETENTION_CLEANUP_INTERVAL_MS', '60000', 'How often each relay process deletes PUBLISHED fallback rows and fitness idempotency keys past their retention.', int(100, 86400000)),
  retentionCleanupBatchSize: setting('RETENTION_CLEANUP_BATCH_SIZE', '1000', 'Rows deleted per statement by the retention cleanup (it repeats until none are left).', int(1, 100000)),
  outboxStatsIntervalMs: setting('OUTBOX_STATS_INTERVAL_MS', '5000', 'How often the outbox gauges (rows per status, oldest unsent age) are refreshed.', int(100, 3600000)),

  // Kafka-first publication (docs/kafka-first.md): direct attempts after commit, fallback rows, relay, reconciler.
  kafkaFirstAttemptTimeoutMs: setting('KAFKA_FIRST_ATTEMPT_TIMEOUT_MS', '1000', 'Timeout of one direct Kafka attempt after commit (3 attempts per event); a timeout means delivery is unknown, not failed.', int(50, 60000)),
  kafkaFirstDeadlineMs: setting('KAFKA_FIRST_DEADLINE_MS', '3500', 'Overall deadline of the 3 direct attempts of one event; after it the fallback row is stored.', int(50, 120000)),
  kafkaFirstRetryDelayMs: setting('KAFKA_FIRST_RETRY_DELAY_MS', '50', 'Pause before the 2nd direct attempt (doubles for the 3rd, jittered).', int(0, 10000)),
  kafkaFirstFallbackTimeoutMs: setting('KAFKA_FIRST_FALLBACK_TIMEOUT_MS', '2000', 'Timeout of the fallback event_publications write; past it the outcome is FALLBACK_STORE_FAILED.', int(50, 60000)),
  kafkaFirstRelayMaxAttempts: setting('KAFKA_FIRST_RELAY_MAX_ATTEMPTS', '3', 'Relay failures after which an event_publications row becomes DEAD_LETTER.', int(1, 100)),
  kafkaFirstRelayBatchSize: setting('KAFKA_FIRST_RELAY_BATCH_SIZE', '100', 'event_publications rows one relay claim takes.', int(1, 10000)),
  kafkaFirstRelayPollIntervalMs: setting('KAFKA_FIRST_RELAY_POLL_INTERVAL_MS', '1000', 'Kafka-first relay sleep when a claim found nothing (fallback rows are rare).', int(1, 600000)),
  kafkaFirstStatsIntervalMs: setting('KAFKA_FIRST_STATS_INTERVAL_MS', '5000', 'How often the relay refreshes the backlog gauges (oldest NOT_PUBLISHED age, DEAD_LETTER count).', int(100, 3600000)),
  publicationReconcilerGraceMs: setting('PUBLICATION_RECONCILER_GRACE_MS', '300000', 'Orders younger than this are left to the direct path; must exceed the projection lag or delivered orders are republished.', int(0, 604800000)),
  publicationReconcilerBatchSize: setting('PUBLICATION_RECONCILER_BATCH_SIZE', '500', 'Orders one reconciler batch examines (SQL LIMIT).', int(1, 10000)),
  publicationReconcilerIntervalMs: setting('PUBLICATION_RECONCILER_INTERVAL_MS', '60000', 'Pause between reconciler passes.', int(100, 86400000)),
  ordersMaxItems: setting('ORDERS_MAX_ITEMS', '100', 'Most line items one order may have.', int(1, 10000)),

  authJwtSecret: setting('AUTH_JWT_SECRET', undefined, 'HS256 secret for bearer tokens (at least 32 characters). Unset in development: a random one is made and local tokens are printed.', z.string().min(32).optional()),
  authJwksUrl: setting('AUTH_JWKS_URL', undefined, 'JWKS endpoint to verify bearer tokens instead of a shared secret.', z.string().url().optional()),
  authIssuer: setting('AUTH_ISSUER', 'tidemark', 'Required `iss` claim of bearer tokens.', z.string().min(1)),
  authAudience: setting('AUTH_AUDIENCE', 'tidemark-gateway', 'Required `aud` claim of bearer tokens.', z.string().min(1)),
  authTokenCacheSize: setting('AUTH_TOKEN_CACHE_SIZE', '10000', 'Verified bearer tokens a gateway remembers, so repeated requests with one token skip the signature check; 0 turns the cache off.', int(0, 10000000)),
  authTokenCacheTtlMs: setting('AUTH_TOKEN_CACHE_TTL_MS', '60000', 'Longest a verified token is trusted without checking its signature again (never past its exp): bounds how long a key withdrawn from the JWKS keeps admitting its tokens.', int(0, 86400000)),
  graphqlMaxDepth: setting('GRAPHQL_MAX_DEPTH', '10', 'Deepest selection a GraphQL operation may have.', int(2, 100)),
  graphqlMaxCost: setting('GRAPHQL_MAX_COST', '5000', 'Highest estimated cost of one GraphQL operation (list fields multiply by their page size).', int(10, 10000000)),
  graphqlMaxPageSize: setting('GRAPHQL_MAX_PAGE_SIZE', '200', 'Largest page any list query returns (`first`).', int(1, 10000)),

  subscriptionMaxBufferedBytes: setting('SUBSCRIPTION_MAX_BUFFERED_BYTES', '4194304', 'Unsent bytes a WebSocket subscriber may accumulate before it is disconnected (close code 4008).', int(1024)),
  subscriptionMaxQueued: setting('SUBSCRIPTION_MAX_QUEUED', '1000', 'State changes queued for one subscriber before it is disconnected (close code 4008).', int(1)),

  // Projector and read models (docs/projections.md, docs/queries.md).
  projectorGroupId: setting('PROJECTOR_GROUP_ID', undefined, 'Kafka consumer group of the projector (also the `consumer` of its checkpoints); defaults to <KAFKA_TOPIC_PREFIX>.projector.', z.string().regex(/^[A-Za-z0-9._-]{1,200}$/).optional()),
  projectorBatchSize: setting('PROJECTOR_BATCH_SIZE', '2000', 'Rows buffered before the projector flushes (one ClickHouse insert per table per flush).', int(1, 100000)),
  projectorFlushIntervalMs: setting('PROJECTOR_FLUSH_INTERVAL_MS', '100', 'Least time between two flush starts of one projector member: events after a quiet spell are written at once, a busy member makes at most one ClickHouse insert per table per interval.', int(1, 60000)),
  projectorConcurrentPartitions: setting('PROJECTOR_CONCURRENT_PARTITIONS', '8', 'Partitions one projector member processes at once (their events share a flush).', int(1, 1000)),
  projectorRetryBaseMs: setting('PROJECTOR_RETRY_BASE_MS', '250', 'First pause after a failed flush (ClickHouse or dead-letter topic unavailable); doubles with jitter.', int(1, 600000)),
  projectorRetryMaxMs: setting('PROJECTOR_RETRY_MAX_MS', '5000', 'Longest pause between flush retries while ClickHouse is unavailable.', int(1, 600000)),
  freshnessCacheMs: setting('FRESHNESS_CACHE_MS', '1000', 'How long a computed freshness marker is reused for the same scope (per gateway process).', int(0, 600000)),
  freshnessStaleAfterMs: setting('FRESHNESS_STALE_AFTER_MS', '60000', 'A pending publication or unapplied Kafka message older than this makes a read STALE instead of CATCHING_UP.', int(1, 86400000)),

  // Reconciliation and repair (docs/reconciliation.md).
  reconcileGraceMs: setting('RECONCILE_GRACE_MS', '30000', 'A difference involving a change younger than this is normal delay, not a discrepancy (orders add the publication reconciler grace and interval).', int(0, 86400000)),
  reconcileMaxAttempts: setting('RECONCILE_MAX_ATTEMPTS', '3', 'Attempts of one reconciliation before it reports CATCHING_UP or SCOPE_CHANGED and is retried later.', int(1, 100)),
  reconcileRetryBaseMs: setting('RECONCILE_RETRY_BASE_MS', '1000', 'Pause after the first attempt that found the scope changing or the projection catching up; doubles with jitter.', int(1, 600000)),
  reconcileRetryMaxMs: setting('RECONCILE_RETRY_MAX_MS', '10000', 'Longest pause between reconciliation attempts.', int(1, 600000)),
  reconcileCatchUpWaitMs: setting('RECONCILE_CATCH_UP_WAIT_MS', '10000', 'How long one attempt waits for the projector to apply what is already on Kafka before calling the scope CATCHING_UP.', int(0, 600000)),
  reconcileBucketCount: setting('RECONCILE_BUCKET_COUNT', '256', 'Buckets of the bucketed digest comparison (large scopes compare bucket digests, then only mismatching buckets per record).', int(1, 65536)),
  reconcileDirectCompareMax: setting('RECONCILE_DIRECT_COMPARE_MAX', '5000', 'Scopes with at most this many records are compared record by record without buckets.', int(0, 10000000)),
  reconcileIntervalMs: setting('RECONCILE_INTERVAL_MS', '300000', 'Pause between scheduled reconciliation passes of the reconciler role.', int(100, 86400000)),
  reconcileQuietMs: setting('RECONCILE_QUIET_MS', '600000', 'A campaign or order hour without changes for this long counts as completed and is reconciled by the schedule.', int(0, 604800000)),
  reconcileLookbackMs: setting('RECONCILE_LOOKBACK_MS', '604800000', 'Only scopes changed within this period are scheduled (older ones were reconciled when they completed).', int(60000, 31536000000)),
  reconcileScopesPerPass: setting('RECONCILE_SCOPES_PER_PASS', '10', 'Most scopes one scheduled pass reconciles.', int(1, 10000)),
  repairEventsPerSecond: setting('REPAIR_EVENTS_PER_SECOND', '200', 'Rate limit of replayed events and tombstones (they share the topic and the projector with live traffic).', int(1, 1000000)),
  rebuildRowsPerSecond: setting('REBUILD_ROWS_PER_SECOND', '50000', 'Rate limit of rows a rebuild loads from the authoritative stores into a shadow table.', int(1, 10000000)),
  repairVerifyTimeoutMs: setting('REPAIR_VERIFY_TIMEOUT_MS', '300000', 'A repair not verified within this time is marked FAILED and its discrepancy reopened.', int(1000, 86400000)),
  repairWaitMs: setting('REPAIR_WAIT_MS', '15000', 'How long the repair and removeUnexpectedRows mutations wait for verification before returning (it continues in the background).', int(0, 600000)),
  rebuildWaitMs: setting('REBUILD_WAIT_MS', '30000', 'How long rebuildProjection waits for the rebuild to finish before returning its current state.', int(0, 3600000)),
  rebuildCatchUpMarginMs: setting('REBUILD_CATCH_UP_MARGIN_MS', '60000', 'Clock margin when a rebuild copies rows that reached the live table during the rebuild (by their ingest time).', int(0, 3600000)),
  rebuildStaleAfterMs: setting('REBUILD_STALE_AFTER_MS', '600000', 'A RUNNING rebuild without a heartbeat for this long is considered abandoned, so a new one may start.', int(10000, 86400000)),

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
  if (s.kafkaFirstDeadlineMs < s.kafkaFirstAttemptTimeoutMs)
    p.push(`KAFKA_FIRST_DEADLINE_MS (${s.kafkaFirstDeadlineMs}) must be at least KAFKA_FIRST_ATTEMPT_TIMEOUT_MS (${s.kafkaFirstAttemptTimeoutMs}).`);
  if (s.env === 'production' && !s.authJwtSecret && !s.authJwksUrl) p.push('Set AUTH_JWT_SECRET or AUTH_JWKS_URL: production needs a way to verify bearer tokens.');
  if (s.authJwtSecret && s.authJwksUrl) p.push('Set only one of AUTH_JWT_SECRET and AUTH_JWKS_URL.');
  if (s.projectorRetryMaxMs < s.projectorRetryBaseMs)
    p.push(`PROJECTOR_RETRY_MAX_MS (${s.projectorRetryMaxMs}) must be at least PROJECTOR_RETRY_BASE_MS (${s.projectorRetryBaseMs}).`);
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

/** Renders settings back into the environment variables that produce them (spawning role processes). */
export function settingsToEnv(s: Settings): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, def] of Object.entries(settingsTable)) {
    const v = (s as unknown as Record<string, unknown>)[key];
    if (v === undefined || v === null) continue;
    env[def.env] = Array.isArray(v) ? v.join(',') : String(v);
  }
  return env;
}
