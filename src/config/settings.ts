// The one typed settings map. Every knob Tidemark reads comes from here: an environment variable, a
// default and a description. `loadSettings` validates all of them at start-up and fails fast with a
// message naming each bad variable; `.env.example` is generated from this table (npm run env:example).
import { DOMAIN_NAME } from '../shared/domain';
import { z } from 'zod';
import { TidemarkError } from '../shared/errors';
import { insecureProductionSettings, isLoopbackHost } from './productionSafety';
import { shardUrlDatabases, shardUrlProblems } from './shardUrls';
import { transportProblems, transportWarnings } from './transport';

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const strategy = z.enum(['outbox', 'kafka-first']);
/** domain=strategy pairs, e.g. `notes=kafka-first`: the strategy of a registered domain without a setting of its own. */
const strategyMap = csv.pipe(
  z
    .array(
      z
        .string()
        .transform((pair) => pair.split('='))
        .pipe(z.tuple([z.string().regex(DOMAIN_NAME, 'each entry is <domain>=outbox|kafka-first'), strategy])),
    )
    .transform((pairs) => Object.fromEntries(pairs)),
);
/** JWT algorithms AUTH_ALGORITHMS may pin (jose names); HS* need AUTH_JWT_SECRET, the others AUTH_JWKS_URL. */
export const JWT_ALGORITHMS = [
  'HS256',
  'HS384',
  'HS512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;
const roles = csv.pipe(z.array(z.enum(['gateway', 'relay', 'projector', 'reconciler'])).min(1));
// TLS modes; true/false are accepted as verify/off (the boolean other tools use for KAFKA_SSL and the like).
const tlsMode = z
  .enum(['off', 'require', 'verify', 'true', 'false'])
  .transform((v) => (v === 'true' ? 'verify' : v === 'false' ? 'off' : v));
const pemPath = z.string().min(1).optional();
// Each problem names its shard, never the URL's text (it may carry a password).
const shardUrls = csv
  .superRefine((urls, ctx) => {
    for (const message of shardUrlProblems(urls)) ctx.addIssue({ code: 'custom', message });
  })
  .pipe(z.array(z.string()).max(64));

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
  env: setting(
    'TIDEMARK_ENV',
    'production',
    'production | development | test. Production unless told otherwise. Development (what `npm start` asks for) prints ' +
      'local tokens and stack traces, manages the local stack, and binds to loopback addresses only.',
    z.enum(['development', 'test', 'production']),
  ),
  allowInsecureTransport: setting(
    'ALLOW_INSECURE_TRANSPORT',
    'false',
    'Production refuses to start with plaintext or unverified transport to an engine, default or empty passwords, an http:// ' +
      'JWKS or ClickHouse URL; true starts anyway and logs a warning naming each (docs/operators.md, "Deploying safely").',
    bool,
  ),
  consoleDevTokens: setting(
    'CONSOLE_DEV_TOKENS',
    'false',
    "Development only: the console's sign-in page offers the development tokens (/console/dev-tokens, loopback only). " +
      '`npm start` turns it on; never with a configured AUTH_JWT_SECRET.',
    bool,
  ),
  roles: setting(
    'TIDEMARK_ROLES',
    'gateway,relay,projector,reconciler',
    'Roles this process runs (comma list of gateway, relay, projector, reconciler).',
    roles,
  ),
  instanceId: setting(
    'TIDEMARK_INSTANCE_ID',
    undefined,
    'Stable name of this process in claims and consumer groups; defaults to host-pid.',
    z.string().min(1).max(64).optional(),
  ),
  logLevel: setting(
    'LOG_LEVEL',
    'info',
    'pino log level: fatal, error, warn, info, debug, trace, silent.',
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  ),

  httpHost: setting('HTTP_HOST', '127.0.0.1', 'Address the gateway binds (HTTP and WebSocket share it).', z.string().min(1)),
  httpPort: setting('HTTP_PORT', '4000', 'Port of GraphQL (/graphql), health (/healthz, /readyz) and metrics (/metrics).', int(0, 65535)),
  opsHost: setting(
    'OPS_HOST',
    '127.0.0.1',
    'Address of the operations listener (/metrics, /healthz, /readyz) that every process serves, whatever its roles.',
    z.string().min(1),
  ),
  opsPort: setting(
    'OPS_PORT',
    '9464',
    'Port of the operations listener (0 picks a free port, logged at start). Outside production the gateway also serves ' +
      '/readyz and /metrics on HTTP_PORT; in production HTTP_PORT serves /healthz only.',
    int(0, 65535),
  ),
  graphqlIntrospection: setting(
    'GRAPHQL_INTROSPECTION',
    undefined,
    'Allow schema introspection (to authenticated callers). Default: off in production, on otherwise.',
    bool.optional(),
  ),
  graphqlExplorer: setting(
    'GRAPHQL_EXPLORER',
    undefined,
    'Serve the local GraphiQL explorer on GET /graphql (assets from node_modules, no CDN). Default: off in production, on otherwise.',
    bool.optional(),
  ),

  mysqlHost: setting('MYSQL_HOST', '127.0.0.1', 'MySQL/MariaDB host of the fitness shards.', z.string().min(1)),
  mysqlPort: setting('MYSQL_PORT', '3306', 'MySQL/MariaDB port.', int(1, 65535)),
  mysqlUser: setting('MYSQL_USER', 'tidemark', 'MySQL user (the stack manager creates it locally).', z.string().min(1)),
  mysqlPassword: setting('MYSQL_PASSWORD', 'tidemark', 'MySQL password.', z.string()),
  fitnessShardDatabases: setting(
    'FITNESS_SHARD_DATABASES',
    'tidemark_fitness_0,tidemark_fitness_1',
    'One MySQL database per fitness shard, in shard order, all on MYSQL_HOST:MYSQL_PORT (FITNESS_SHARDS, when set, names ' +
      'them instead). Changing the count moves where new results go: see docs/sharding.md.',
    csv.pipe(
      z
        .array(z.string().regex(/^[A-Za-z0-9_]{1,64}$/))
        .min(1)
        .max(64),
    ),
  ),
  fitnessShards: setting(
    'FITNESS_SHARDS',
    '',
    'One mysql://[user:password@]host:port/database URL per fitness shard, in shard order, so shards can live on servers ' +
      'of their own (credentials percent-encoded; absent ones are MYSQL_USER/MYSQL_PASSWORD; TLS is MYSQL_TLS* for every ' +
      'shard). Empty: FITNESS_SHARD_DATABASES on MYSQL_HOST:MYSQL_PORT (docs/sharding.md).',
    shardUrls,
  ),

  pgHost: setting('PG_HOST', '127.0.0.1', 'PostgreSQL host of the orders store.', z.string().min(1)),
  pgPort: setting('PG_PORT', '5432', 'PostgreSQL port.', int(1, 65535)),
  pgUser: setting('PG_USER', 'tidemark', 'PostgreSQL user (the stack manager creates it locally).', z.string().min(1)),
  pgPassword: setting('PG_PASSWORD', 'tidemark', 'PostgreSQL password.', z.string()),
  pgDatabase: setting('PG_DATABASE', 'tidemark_orders', 'PostgreSQL database of orders.', z.string().regex(/^[A-Za-z0-9_]{1,63}$/)),
  dbPoolMax: setting('DB_POOL_MAX', '16', 'Maximum connections per relational pool (per shard).', int(1, 1000)),

  kafkaBrokers: setting(
    'KAFKA_BROKERS',
    '127.0.0.1:9092',
    'Kafka bootstrap brokers (comma list).',
    csv.pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/)).min(1)),
  ),
  kafkaVersion: setting(
    'KAFKA_VERSION',
    '3.9',
    'Kafka line the stack manager runs locally: 3.9, or 4 (the newest 4.x it knows, data in <STACK_DIR>/kafka-4). Several ' +
      'local KAFKA_BROKERS run that many combined broker+controller nodes (docs/stack.md).',
    z.enum(['3.9', '4']),
  ),
  kafkaClientId: setting('KAFKA_CLIENT_ID', 'tidemark', 'Kafka client id.', z.string().min(1)),
  kafkaTopicPrefix: setting(
    'KAFKA_TOPIC_PREFIX',
    'tidemark',
    'Prefix of every topic Tidemark creates (<prefix>.fitness-results, ...).',
    z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
  ),
  kafkaPartitions: setting('KAFKA_PARTITIONS', '6', 'Partitions of each domain topic when Tidemark creates it.', int(1, 1000)),
  kafkaReplicationFactor: setting(
    'KAFKA_REPLICATION_FACTOR',
    '1',
    'Replication factor of topics Tidemark creates (3 in production; 1 outside development logs a warning).',
    int(1, 10),
  ),
  kafkaMinInsyncReplicas: setting(
    'KAFKA_MIN_INSYNC_REPLICAS',
    '1',
    'min.insync.replicas of topics Tidemark creates: with acks=all a write needs this many replicas (2 with a replication factor of 3).',
    int(1, 10),
  ),
  kafkaProbeTimeoutMs: setting(
    'KAFKA_PROBE_TIMEOUT_MS',
    '2000',
    'Timeout of one cluster probe while the Kafka circuit is open (a metadata request on a fresh connection).',
    int(50, 60000),
  ),
  kafkaRetentionMs: setting(
    'KAFKA_RETENTION_MS',
    '604800000',
    'retention.ms of topics Tidemark creates (-1: no time limit). A projector stopped for longer loses ' +
      'events: they are detected, counted and reconciled (docs/projections.md).',
    int(-1, Number.MAX_SAFE_INTEGER),
  ),
  kafkaCompactionSegmentMs: setting(
    'KAFKA_COMPACTION_SEGMENT_MS',
    undefined,
    'segment.ms of the compacted topics that hold personal data (a domain with an erasure, its dead letters): the open ' +
      'segment is never compacted, so an erased record can outlive this plus KAFKA_MAX_COMPACTION_LAG_MS. Default 3600000 ' +
      '(1 h); 10000 with TIDEMARK_ENV=development or test (docs/erasure.md).',
    int(1000, 7 * 86400000).optional(),
  ),
  kafkaMaxCompactionLagMs: setting(
    'KAFKA_MAX_COMPACTION_LAG_MS',
    undefined,
    'max.compaction.lag.ms of those topics: the longest a superseded record (one an erasure tombstoned) stays readable in a ' +
      'closed segment. Default 86400000 (24 h); 10000 with TIDEMARK_ENV=development or test.',
    int(1000, 7 * 86400000).optional(),
  ),
  kafkaMinCleanableDirtyRatio: setting(
    'KAFKA_MIN_CLEANABLE_DIRTY_RATIO',
    undefined,
    'min.cleanable.dirty.ratio of those topics (0.01-0.99). Default 0.5; 0.01 with TIDEMARK_ENV=development or test.',
    z.coerce.number().min(0.01).max(0.99).optional(),
  ),

  clickhouseEngine: setting(
    'CLICKHOUSE_ENGINE',
    'server',
    'server: the ClickHouse server at CLICKHOUSE_URL. embedded: ClickHouse 26 inside this process (npm package chdb), data in ' +
      'CLICKHOUSE_EMBEDDED_PATH; gateway, projector and reconciler must then run together in one process (docs/stack.md).',
    z.enum(['server', 'embedded']),
  ),
  clickhouseEmbeddedPath: setting(
    'CLICKHOUSE_EMBEDDED_PATH',
    undefined,
    'Data directory of the embedded ClickHouse (CLICKHOUSE_ENGINE=embedded); defaults to <STACK_DIR>/clickhouse-embedded. One process at a time can open it.',
    z.string().min(1).optional(),
  ),
  clickhouseUrl: setting('CLICKHOUSE_URL', 'http://127.0.0.1:8123', 'ClickHouse HTTP endpoint.', z.string().url()),
  clickhouseUser: setting('CLICKHOUSE_USER', 'default', 'ClickHouse user.', z.string().min(1)),
  clickhousePassword: setting('CLICKHOUSE_PASSWORD', '', 'ClickHouse password.', z.string()),
  clickhouseReadUser: setting(
    'CLICKHOUSE_READ_USER',
    '',
    "ClickHouse user of the gateway's reads, read-only by its profile (readonly=2); empty: CLICKHOUSE_USER (docs/operators.md).",
    z.string().regex(/^[A-Za-z0-9_.-]{0,64}$/),
  ),
  clickhouseReadPassword: setting('CLICKHOUSE_READ_PASSWORD', '', 'Password of CLICKHOUSE_READ_USER.', z.string()),
  clickhouseDatabase: setting(
    'CLICKHOUSE_DATABASE',
    'tidemark',
    'ClickHouse database of the projections.',
    z.string().regex(/^[A-Za-z0-9_]{1,64}$/),
  ),
  clickhouseCluster: setting(
    'CLICKHOUSE_CLUSTER',
    '',
    'Empty: the projections live on one ClickHouse server. A cluster name (remote_servers of the server at CLICKHOUSE_URL): ' +
      'replicated local tables and Distributed tables ON CLUSTER, inserts acknowledged once every shard has them (docs/projections.md).',
    z.string().regex(/^([A-Za-z0-9_]{1,64})?$/),
  ),

  // Secure transport (docs/configuration.md, "Secure transport"): every engine connection plaintext unless set.
  // CA/cert/key are PEM file paths, read once at start; a file that cannot be read stops start-up.
  mysqlTls: setting(
    'MYSQL_TLS',
    'off',
    'TLS to MySQL/MariaDB: off (plaintext), require (encrypted, certificate not checked), verify (certificate ' +
      'chain and host name checked against MYSQL_TLS_CA, or the system CAs).',
    tlsMode,
  ),
  mysqlTlsCa: setting(
    'MYSQL_TLS_CA',
    undefined,
    'PEM file of the CA(s) that sign the MySQL server certificate (MYSQL_TLS=verify).',
    pemPath,
  ),
  mysqlTlsCert: setting('MYSQL_TLS_CERT', undefined, 'PEM client certificate for MySQL (mutual TLS; needs MYSQL_TLS_KEY).', pemPath),
  mysqlTlsKey: setting('MYSQL_TLS_KEY', undefined, 'PEM private key of MYSQL_TLS_CERT (unencrypted).', pemPath),
  pgTls: setting(
    'PG_TLS',
    'off',
    'TLS to PostgreSQL: off (plaintext), require (encrypted, certificate not checked), verify (certificate ' +
      'chain and host name checked against PG_TLS_CA, or the system CAs).',
    tlsMode,
  ),
  pgTlsCa: setting('PG_TLS_CA', undefined, 'PEM file of the CA(s) that sign the PostgreSQL server certificate (PG_TLS=verify).', pemPath),
  pgTlsCert: setting(
    'PG_TLS_CERT',
    undefined,
    'PEM client certificate for PostgreSQL (clientcert / cert authentication; needs PG_TLS_KEY).',
    pemPath,
  ),
  pgTlsKey: setting('PG_TLS_KEY', undefined, 'PEM private key of PG_TLS_CERT (unencrypted).', pemPath),
  clickhouseTlsCa: setting(
    'CLICKHOUSE_TLS_CA',
    undefined,
    'PEM file of the CA(s) that sign the ClickHouse server certificate; TLS itself comes from an https:// ' +
      'CLICKHOUSE_URL (verified against the system CAs without this).',
    pemPath,
  ),
  clickhouseTlsCert: setting(
    'CLICKHOUSE_TLS_CERT',
    undefined,
    'PEM client certificate for ClickHouse (mutual TLS; needs CLICKHOUSE_TLS_KEY and CLICKHOUSE_TLS_CA).',
    pemPath,
  ),
  clickhouseTlsKey: setting('CLICKHOUSE_TLS_KEY', undefined, 'PEM private key of CLICKHOUSE_TLS_CERT (unencrypted).', pemPath),
  kafkaSsl: setting(
    'KAFKA_SSL',
    'off',
    'TLS to every Kafka broker: off (plaintext), require (encrypted, certificate not checked), verify ' +
      '(certificate chain and host name checked against KAFKA_SSL_CA, or the system CAs).',
    tlsMode,
  ),
  kafkaSslCa: setting(
    'KAFKA_SSL_CA',
    undefined,
    'PEM file of the CA(s) that sign the Kafka broker certificates (KAFKA_SSL=verify).',
    pemPath,
  ),
  kafkaSslCert: setting(
    'KAFKA_SSL_CERT',
    undefined,
    'PEM client certificate for Kafka (ssl.client.auth=required; needs KAFKA_SSL_KEY).',
    pemPath,
  ),
  kafkaSslKey: setting('KAFKA_SSL_KEY', undefined, 'PEM private key of KAFKA_SSL_CERT (unencrypted).', pemPath),
  kafkaSaslMechanism: setting(
    'KAFKA_SASL_MECHANISM',
    'none',
    'SASL authentication to Kafka: none, scram-sha-256 or scram-sha-512 (a SASL_SSL listener with KAFKA_SSL, or SASL_PLAINTEXT without).',
    z.enum(['none', 'scram-sha-256', 'scram-sha-512']),
  ),
  kafkaSaslUsername: setting(
    'KAFKA_SASL_USERNAME',
    undefined,
    'SASL user name (KAFKA_SASL_MECHANISM other than none).',
    z.string().min(1).optional(),
  ),
  kafkaSaslPassword: setting(
    'KAFKA_SASL_PASSWORD',
    undefined,
    'SASL password (KAFKA_SASL_MECHANISM other than none).',
    z.string().min(1).optional(),
  ),

  fitnessStrategy: setting('FITNESS_PUBLICATION_STRATEGY', 'outbox', 'How fitness events are published: outbox | kafka-first.', strategy),
  ordersStrategy: setting('ORDERS_PUBLICATION_STRATEGY', 'kafka-first', 'How order events are published: outbox | kafka-first.', strategy),
  publicationStrategies: setting(
    'PUBLICATION_STRATEGIES',
    '',
    'How the events of other registered domains are published (comma list of <domain>=outbox|kafka-first); a domain not ' +
      'listed uses its module default.',
    strategyMap,
  ),

  relayBatchSize: setting('RELAY_BATCH_SIZE', '500', 'Rows one relay claim takes.', int(1, 10000)),
  relayLoopsPerStore: setting(
    'RELAY_LOOPS_PER_STORE',
    '2',
    'Claim-publish-complete loops per store in one relay process: while one publishes, another claims or completes (SKIP LOCKED keeps their rows disjoint).',
    int(1, 64),
  ),
  relayPollIntervalMs: setting(
    'RELAY_POLL_INTERVAL_MS',
    '50',
    'Relay sleep when a claim found nothing (the wait a new event can add before it is claimed; an idle relay makes 1000/this claims per second per shard).',
    int(1, 600000),
  ),
  relayLeaseMs: setting(
    'RELAY_LEASE_MS',
    '30000',
    'Claim lease; must exceed RELAY_PUBLISH_TIMEOUT_MS so a slow healthy publish is not reclaimed.',
    int(100, 3600000),
  ),
  relayPublishTimeoutMs: setting('RELAY_PUBLISH_TIMEOUT_MS', '10000', 'Kafka request timeout of one relay publish.', int(100, 600000)),
  relayMaxAttempts: setting(
    'RELAY_MAX_ATTEMPTS',
    '20',
    'Outbox publish attempts that failed on the record itself (too large, invalid, unauthorised) before it is PARKED; a Kafka outage never counts.',
    int(1, 1000),
  ),
  relayBackoffBaseMs: setting('RELAY_BACKOFF_BASE_MS', '500', 'First retry delay; doubles per attempt with full jitter.', int(1, 3600000)),
  relayBackoffMaxMs: setting('RELAY_BACKOFF_MAX_MS', '60000', 'Upper bound of the retry delay.', int(1, 86400000)),
  relayOutageBackoffBaseMs: setting(
    'RELAY_OUTAGE_BACKOFF_BASE_MS',
    '250',
    "While Kafka or a relay's own store (a shard, PostgreSQL) is unreachable (an outage, never counted against a record): " +
      'first wait before trying again; doubles with jitter.',
    int(1, 3600000),
  ),
  relayOutageBackoffMaxMs: setting(
    'RELAY_OUTAGE_BACKOFF_MAX_MS',
    '5000',
    'Longest wait between two tries during such an outage: bounds how long publishing stays paused after Kafka or the store is back.',
    int(1, 3600000),
  ),
  relayGiveUpAgeHours: setting(
    'RELAY_GIVE_UP_AGE_HOURS',
    '24',
    'Last resort: a publication older than this that still fails, even in an outage, is PARKED / ' +
      'DEAD_LETTER with code RELAY_GIVE_UP_AGE (0 never gives up by age).',
    int(0, 87600),
  ),
  outboxRetentionHours: setting(
    'OUTBOX_RETENTION_HOURS',
    '72',
    'SENT outbox rows older than this are deleted in bounded batches.',
    int(0, 87600),
  ),
  outboxCleanupIntervalMs: setting(
    'OUTBOX_CLEANUP_INTERVAL_MS',
    '60000',
    'How often each relay process deletes expired SENT outbox rows.',
    int(100, 86400000),
  ),
  outboxCleanupBatchSize: setting(
    'OUTBOX_CLEANUP_BATCH_SIZE',
    '1000',
    'SENT outbox rows deleted per statement (cleanup repeats until none are left).',
    int(1, 100000),
  ),
  kafkaFirstPublishedRetentionHours: setting(
    'KAFKA_FIRST_PUBLISHED_RETENTION_HOURS',
    '72',
    'PUBLISHED event_publications rows (fallback rows the relay has since delivered) older than this ' +
      'are deleted; NOT_PUBLISHED and DEAD_LETTER rows never are.',
    int(1, 87600),
  ),
  fitnessIdempotencyKeyRetentionHours: setting(
    'FITNESS_IDEMPOTENCY_KEY_RETENTION_HOURS',
    '168',
    'How long a fitness idempotency key (and the first response it replays) is kept: a retry within this ' +
      'window returns the first result; after it, the key is free again.',
    int(1, 87600),
  ),
  retentionCleanupIntervalMs: setting(
    'RETENTION_CLEANUP_INTERVAL_MS',
    '60000',
    'How often each relay process deletes PUBLISHED fallback rows and fitness idempotency keys past their retention.',
    int(100, 86400000),
  ),
  retentionCleanupBatchSize: setting(
    'RETENTION_CLEANUP_BATCH_SIZE',
    '1000',
    'Rows deleted per statement by the retention cleanup (it repeats until none are left).',
    int(1, 100000),
  ),
  fitnessDeletionLogRetentionDays: setting(
    'FITNESS_DELETION_LOG_RETENTION_DAYS',
    '0',
    'Days a deleted fitness result stays in fitness_result_deletions (the deletion log that lets reconciliation tell a ' +
      'deletion from a loss). 0 keeps it until the student is erased; a value keeps it that long, after which a lost ' +
      'tombstone of an older deletion is no longer repaired (docs/erasure.md, "Retention").',
    int(0, 36500),
  ),
  reconciliationLedgerRetentionDays: setting(
    'RECONCILIATION_LEDGER_RETENTION_DAYS',
    '365',
    'Days finished reconciliation runs, their discrepancies and repair records are kept (0: for ever).',
    int(0, 36500),
  ),
  outboxStatsIntervalMs: setting(
    'OUTBOX_STATS_INTERVAL_MS',
    '5000',
    'How often the outbox gauges (rows per status, oldest unsent age) are refreshed.',
    int(100, 3600000),
  ),

  // Kafka-first publication (docs/kafka-first.md): direct attempts after commit, fallback rows, relay, reconciler.
  kafkaFirstAttemptTimeoutMs: setting(
    'KAFKA_FIRST_ATTEMPT_TIMEOUT_MS',
    '1000',
    'Timeout of one direct Kafka attempt after commit (3 attempts per event); a timeout means delivery is unknown, not failed.',
    int(50, 60000),
  ),
  kafkaFirstDeadlineMs: setting(
    'KAFKA_FIRST_DEADLINE_MS',
    '3500',
    'Overall deadline of the 3 direct attempts of one event; after it the fallback row is stored.',
    int(50, 120000),
  ),
  kafkaFirstRetryDelayMs: setting(
    'KAFKA_FIRST_RETRY_DELAY_MS',
    '50',
    'Pause before the 2nd direct attempt (doubles for the 3rd, jittered).',
    int(0, 10000),
  ),
  kafkaFirstFallbackTimeoutMs: setting(
    'KAFKA_FIRST_FALLBACK_TIMEOUT_MS',
    '2000',
    'Timeout of the fallback event_publications write; past it the outcome is FALLBACK_STORE_FAILED.',
    int(50, 60000),
  ),
  kafkaFirstRelayMaxAttempts: setting(
    'KAFKA_FIRST_RELAY_MAX_ATTEMPTS',
    '3',
    'Relay failures of the record itself (never an outage) after which an event_publications row becomes DEAD_LETTER.',
    int(1, 100),
  ),
  kafkaFirstRelayBatchSize: setting('KAFKA_FIRST_RELAY_BATCH_SIZE', '100', 'event_publications rows one relay claim takes.', int(1, 10000)),
  kafkaFirstRelayPollIntervalMs: setting(
    'KAFKA_FIRST_RELAY_POLL_INTERVAL_MS',
    '1000',
    'Kafka-first relay sleep when a claim found nothing (fallback rows are rare).',
    int(1, 600000),
  ),
  kafkaFirstStatsIntervalMs: setting(
    'KAFKA_FIRST_STATS_INTERVAL_MS',
    '5000',
    'How often the relay refreshes the backlog gauges (oldest NOT_PUBLISHED age, DEAD_LETTER count).',
    int(100, 3600000),
  ),
  publicationReconcilerGraceMs: setting(
    'PUBLICATION_RECONCILER_GRACE_MS',
    '300000',
    'Orders younger than this are left to the direct path; must exceed the projection lag or delivered orders are republished.',
    int(0, 604800000),
  ),
  publicationReconcilerBatchSize: setting(
    'PUBLICATION_RECONCILER_BATCH_SIZE',
    '500',
    'Orders one reconciler batch examines (SQL LIMIT).',
    int(1, 10000),
  ),
  publicationReconcilerIntervalMs: setting(
    'PUBLICATION_RECONCILER_INTERVAL_MS',
    '60000',
    'Pause between reconciler passes.',
    int(100, 86400000),
  ),
  ordersMaxItems: setting('ORDERS_MAX_ITEMS', '100', 'Most line items one order may have.', int(1, 10000)),

  authJwtSecret: setting(
    'AUTH_JWT_SECRET',
    undefined,
    'HS256 secret for bearer tokens (at least 32 characters). Unset in development: a random one is made and local tokens are printed.',
    z.string().min(32).optional(),
  ),
  authJwksUrl: setting(
    'AUTH_JWKS_URL',
    undefined,
    'JWKS endpoint to verify bearer tokens instead of a shared secret.',
    z.string().url().optional(),
  ),
  authJwksTimeoutMs: setting(
    'AUTH_JWKS_TIMEOUT_MS',
    '5000',
    'Longest one fetch of AUTH_JWKS_URL may take, body included; requests waiting on a slower one are refused (UNAUTHENTICATED).',
    int(100, 60000),
  ),
  authJwksCacheMaxAgeMs: setting(
    'AUTH_JWKS_CACHE_MAX_AGE_MS',
    '300000',
    'Age after which the keys from AUTH_JWKS_URL are fetched again: bounds how long a key withdrawn from the JWKS keeps ' +
      'verifying new tokens (add AUTH_TOKEN_CACHE_TTL_MS for tokens already verified).',
    int(1000, 86400000),
  ),
  authJwksCooldownMs: setting(
    'AUTH_JWKS_COOLDOWN_MS',
    '30000',
    'Least time between fetches of AUTH_JWKS_URL that a token with an unknown key id (kid) triggers.',
    int(0, 3600000),
  ),
  authIssuer: setting('AUTH_ISSUER', 'tidemark', 'Required `iss` claim of bearer tokens.', z.string().min(1)),
  authAudience: setting('AUTH_AUDIENCE', 'tidemark-gateway', 'Required `aud` claim of bearer tokens.', z.string().min(1)),
  authTokenCacheSize: setting(
    'AUTH_TOKEN_CACHE_SIZE',
    '10000',
    'Verified bearer tokens a gateway remembers, so repeated requests with one token skip the signature check; 0 turns the cache off.',
    int(0, 10000000),
  ),
  authTokenCacheTtlMs: setting(
    'AUTH_TOKEN_CACHE_TTL_MS',
    '60000',
    'Longest a verified token is trusted without checking its signature again (never past its exp): bounds ' +
      'how long a key withdrawn from the JWKS keeps admitting its tokens.',
    int(0, 86400000),
  ),
  graphqlMaxDepth: setting('GRAPHQL_MAX_DEPTH', '10', 'Deepest selection a GraphQL operation may have.', int(2, 100)),
  graphqlMaxCost: setting(
    'GRAPHQL_MAX_COST',
    '5000',
    'Highest estimated cost of one GraphQL operation (list fields multiply by their page size).',
    int(10, 10000000),
  ),
  graphqlMaxPageSize: setting('GRAPHQL_MAX_PAGE_SIZE', '200', 'Largest page any list query returns (`first`).', int(1, 10000)),
  graphqlMaxDocumentBytes: setting(
    'GRAPHQL_MAX_DOCUMENT_BYTES',
    '16384',
    'Largest GraphQL document (the query text, variables aside), refused before it is parsed; well below the 256 KiB body limit.',
    int(1024, 1048576),
  ),
  graphqlMaxTokens: setting(
    'GRAPHQL_MAX_TOKENS',
    '2000',
    'Most lexical tokens the parser reads in one document; a longer one is refused while parsing.',
    int(100, 100000),
  ),
  graphqlMaxRepeatedSelections: setting(
    'GRAPHQL_MAX_REPEATED_SELECTIONS',
    '5',
    'Most times one field (response name) or fragment may be selected in one selection set, refused before validation: ' +
      'repeated fields make validation super-linear.',
    int(1, 1000),
  ),

  // Rate limits (docs/operators.md, "Deploying safely"): 0 turns a limit off.
  rateLimitPerSecond: setting(
    'RATE_LIMIT_PER_SECOND',
    '50',
    'GraphQL requests per second one principal (token subject) may make on average; over it: 429 with Retry-After.',
    int(0, 1000000),
  ),
  rateLimitBurst: setting(
    'RATE_LIMIT_BURST',
    '200',
    'Requests one principal may make at once above its rate (bucket size).',
    int(1, 10000000),
  ),
  rateLimitConcurrent: setting(
    'RATE_LIMIT_CONCURRENT',
    '16',
    'GraphQL requests of one principal in progress at once; more are refused with 429, not queued.',
    int(0, 100000),
  ),
  rateLimitServicePerSecond: setting(
    'RATE_LIMIT_SERVICE_PER_SECOND',
    '2000',
    'Request rate of each trusted service subject (AUTH_SERVICE_SUBJECTS), instead of RATE_LIMIT_PER_SECOND.',
    int(0, 1000000),
  ),
  rateLimitServiceBurst: setting('RATE_LIMIT_SERVICE_BURST', '4000', 'Burst of each trusted service subject.', int(1, 10000000)),
  rateLimitServiceConcurrent: setting(
    'RATE_LIMIT_SERVICE_CONCURRENT',
    '256',
    'Requests of one trusted service subject in progress at once.',
    int(0, 100000),
  ),
  rateLimitAnonymousPerSecond: setting(
    'RATE_LIMIT_ANONYMOUS_PER_SECOND',
    '20',
    'Requests per second per client address that carry no valid token (each is refused, but costs a verification).',
    int(0, 1000000),
  ),
  rateLimitAnonymousBurst: setting(
    'RATE_LIMIT_ANONYMOUS_BURST',
    '100',
    'Burst of requests without a valid token per client address.',
    int(1, 10000000),
  ),
  wsMaxConnectionsPerPrincipal: setting(
    'WS_MAX_CONNECTIONS_PER_PRINCIPAL',
    '16',
    'WebSocket connections one principal may hold open at once (a service subject: 16 times as many); more are closed with 4429.',
    int(0, 100000),
  ),
  wsMaxOperationsPerSocket: setting(
    'WS_MAX_OPERATIONS_PER_SOCKET',
    '32',
    'Operations (subscriptions) running at once on one WebSocket; more are refused with RATE_LIMITED.',
    int(0, 100000),
  ),

  // Bounds of every read (docs/queries.md): ClickHouse enforces them server-side.
  readMaxExecutionSeconds: setting(
    'READ_MAX_EXECUTION_SECONDS',
    '10',
    'max_execution_time of every ClickHouse read the gateway makes; a longer one is stopped by the server (READ_TOO_EXPENSIVE).',
    int(1, 3600),
  ),
  readMaxMemoryBytes: setting(
    'READ_MAX_MEMORY_BYTES',
    '1073741824',
    'max_memory_usage of every ClickHouse read the gateway makes.',
    int(10000000, 1099511627776),
  ),
  readMaxWindowDays: setting(
    'READ_MAX_WINDOW_DAYS',
    '31',
    'Widest from/to window that bounds an orders list on its own (without a customer); wider or open windows need another filter.',
    int(1, 3660),
  ),

  // Client conventions (docs/operators.md, "Browsers, request ids and tokens from other issuers").
  corsOrigins: setting(
    'CORS_ORIGINS',
    '',
    'Browser origins allowed to call /graphql across origins (comma list of exact origins, e.g. https://app.example.com; none by default).',
    csv.pipe(z.array(z.string().regex(/^https?:\/\/[^\s/,]+$/, 'an origin is scheme://host[:port] with no path'))),
  ),
  authRolesClaim: setting(
    'AUTH_ROLES_CLAIM',
    'roles',
    "Claim holding the caller's roles: a dotted path (realm_access.roles for Keycloak) or a claim name used as is " +
      '(a namespaced Auth0 claim such as https://example.com/roles). Roles Tidemark does not know are ignored.',
    z.string().min(1).max(200),
  ),
  authCustomerIdClaim: setting(
    'AUTH_CUSTOMER_ID_CLAIM',
    'customer_id',
    'Claim (name or dotted path) holding the customer id of a customer token: a string; the customer places and reads only its own orders.',
    z.string().min(1).max(200),
  ),
  authSchoolIdsClaim: setting(
    'AUTH_SCHOOL_IDS_CLAIM',
    'school_ids',
    'Claim (name or dotted path) holding the school ids (array of integers) of a teacher token (required) or an analyst token (optional).',
    z.string().min(1).max(200),
  ),
  authUserIdClaim: setting(
    'AUTH_USER_ID_CLAIM',
    'user_id',
    "Claim (name or dotted path) holding a student token's own user id (an integer).",
    z.string().min(1).max(200),
  ),
  authServiceSubjects: setting(
    'AUTH_SERVICE_SUBJECTS',
    '',
    'Token subjects (comma list) allowed the `service` role: trusted backends that authorise their own users and read and write ' +
      'every row. None by default; a `service` role in any other token is ignored.',
    csv.pipe(z.array(z.string().min(1).max(256)).max(100)),
  ),
  reportMinGroupSize: setting(
    'REPORT_MIN_GROUP_SIZE',
    '5',
    'Smallest group (distinct students or customers) an analyst report shows; smaller groups are suppressed and only counted.',
    int(1, 1000000),
  ),
  authAlgorithms: setting(
    'AUTH_ALGORITHMS',
    undefined,
    'JWT algorithms accepted (comma list). Default: HS256 with AUTH_JWT_SECRET; RS256,PS256,ES256,EdDSA with ' +
      'AUTH_JWKS_URL. Tokens signed otherwise (or unsigned) are refused.',
    csv.pipe(z.array(z.enum(JWT_ALGORITHMS)).min(1)).optional(),
  ),

  // Erasure (docs/erasure.md).
  erasureDeadlineHours: setting(
    'ERASURE_DEADLINE_HOURS',
    '72',
    'Hours within which an erasure must have removed the person from every store; one still running later raises ' +
      'TidemarkErasureOverdue.',
    int(1, 8760),
  ),
  erasureHashSecret: setting(
    'ERASURE_HASH_SECRET',
    undefined,
    'Secret (at least 32 characters, the same on every process) of the keyed hashes that stand for an erased person in the ' +
      'audit record and as a pseudonym. Unset: derived (HKDF) from CONSISTENCY_TOKEN_SECRET, else AUTH_JWT_SECRET, else in ' +
      'development the development secret. Changing it breaks the link between old hashes and new ones.',
    z.string().min(32).optional(),
  ),
  erasuresPerMinute: setting(
    'ERASURES_PER_MINUTE',
    '10',
    'Most erasures this gateway starts per minute (more are refused with RATE_LIMITED, nothing changed).',
    int(1, 10000),
  ),
  erasurePollMs: setting('ERASURE_POLL_MS', '1000', 'How often the reconciler looks for an erasure that is due.', int(50, 600000)),
  erasureRetryMs: setting(
    'ERASURE_RETRY_MS',
    '5000',
    'Pause before an erasure whose step failed or must wait (a compaction, a mutation) is taken up again.',
    int(100, 3600000),
  ),
  erasureLeaseMs: setting(
    'ERASURE_LEASE_MS',
    '60000',
    'How long one reconciler holds an erasure it works on; a crashed holder is replaced after this.',
    int(1000, 3600000),
  ),
  erasureGuardRefreshMs: setting(
    'ERASURE_GUARD_REFRESH_MS',
    '5000',
    'How often the projector, repairs and rebuilds re-read the erased aggregates they must never write again.',
    int(100, 600000),
  ),

  // Read your own writes (docs/queries.md, "Read your own writes").
  consistencyTokenSecret: setting(
    'CONSISTENCY_TOKEN_SECRET',
    undefined,
    'Secret (at least 32 characters, the same on every gateway) that consistency tokens are MACed with. Unset: derived from ' +
      'AUTH_JWT_SECRET (HKDF), or in development from the development secret; production without either refuses to start.',
    z.string().min(32).optional(),
  ),
  consistencyWaitDefaultMs: setting(
    'CONSISTENCY_WAIT_DEFAULT_MS',
    '2000',
    'How long a read given consistency tokens waits for their writes when it names no maxWaitMs.',
    int(0, 60000),
  ),
  consistencyWaitMaxMs: setting(
    'CONSISTENCY_WAIT_MAX_MS',
    '10000',
    'Largest maxWaitMs a read may ask for (VALIDATION_FAILED above it).',
    int(0, 60000),
  ),
  consistencyMaxWaiting: setting(
    'CONSISTENCY_MAX_WAITING',
    '10000',
    'Reads and writeVisible subscriptions one gateway lets wait for writes at once; more are refused with OVERLOADED (retriable).',
    int(1, 1000000),
  ),

  subscriptionMaxBufferedBytes: setting(
    'SUBSCRIPTION_MAX_BUFFERED_BYTES',
    '4194304',
    'Unsent bytes a WebSocket subscriber may accumulate before it is disconnected (close code 4008).',
    int(1024),
  ),
  subscriptionMaxQueued: setting(
    'SUBSCRIPTION_MAX_QUEUED',
    '1000',
    'State changes queued for one subscriber before it is disconnected (close code 4008).',
    int(1),
  ),

  // Event schema versions and rolling upgrades (docs/upgrades.md).
  eventSchemaVersionCap: setting(
    'EVENT_SCHEMA_VERSION_CAP',
    undefined,
    'Newest event schema version this process knows, for reading (the projector parks newer events as ' +
      "UNSUPPORTED_SCHEMA_VERSION) and writing (producers never write newer). Unset: each domain's newest. Pins a fleet " +
      'during a rollout, or stands up an older deploy in tests (docs/upgrades.md).',
    int(1).optional(),
  ),
  eventSchemaGateRefreshMs: setting(
    'EVENT_SCHEMA_GATE_REFRESH_MS',
    '5000',
    "How often a producer re-reads the projector group's announced reader versions (the schema version gate, docs/upgrades.md).",
    int(100),
  ),

  // Projector and read models (docs/projections.md, docs/queries.md).
  projectorGroupId: setting(
    'PROJECTOR_GROUP_ID',
    undefined,
    'Kafka consumer group of the projector (also the `consumer` of its checkpoints); defaults to <KAFKA_TOPIC_PREFIX>.projector.',
    z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,200}$/)
      .optional(),
  ),
  projectorBatchSize: setting(
    'PROJECTOR_BATCH_SIZE',
    '2000',
    'Rows buffered before the projector flushes (one ClickHouse insert per table per flush).',
    int(1, 100000),
  ),
  projectorFlushIntervalMs: setting(
    'PROJECTOR_FLUSH_INTERVAL_MS',
    '100',
    'Least time between two flush starts of one projector member: events after a quiet spell are written at once, a ' +
      'busy member makes at most one ClickHouse insert per table per interval.',
    int(1, 60000),
  ),
  projectorConcurrentPartitions: setting(
    'PROJECTOR_CONCURRENT_PARTITIONS',
    '8',
    'Partitions one projector member processes at once (their events share a flush).',
    int(1, 1000),
  ),
  projectorRetryBaseMs: setting(
    'PROJECTOR_RETRY_BASE_MS',
    '250',
    'First pause after a failed flush (ClickHouse or dead-letter topic unavailable); doubles with jitter.',
    int(1, 600000),
  ),
  projectorRetryMaxMs: setting(
    'PROJECTOR_RETRY_MAX_MS',
    '5000',
    'Longest pause between flush retries while ClickHouse is unavailable.',
    int(1, 600000),
  ),
  projectorExpiryWindowMarginMs: setting(
    'PROJECTOR_EXPIRY_WINDOW_MARGIN_MS',
    '3600000',
    'When events expired on Kafka before they were applied, the window reconciled starts this long before the newest commit ' +
      'time applied on that partition (covers events published late after their commit).',
    int(0, 31536000000),
  ),
  projectorCheckpointCheckMs: setting(
    'PROJECTOR_CHECKPOINT_CHECK_MS',
    '5000',
    "How often a projector member compares the read model's checkpoints with what it wrote; a store found behind (emptied, " +
      'restored from an older copy) is re-applied from what it holds (docs/projections.md).',
    int(100, 3600000),
  ),
  freshnessCacheMs: setting(
    'FRESHNESS_CACHE_MS',
    '1000',
    'How long a ClickHouse applied snapshot (checkpoints, expired ranges, dead letters) may be reused by a freshness marker, ' +
      'and only when it already covers the Kafka log end just read (so it cannot call anything applied that is not); ' +
      'pending publications and log ends are never reused.',
    int(0, 600000),
  ),
  freshnessStaleAfterMs: setting(
    'FRESHNESS_STALE_AFTER_MS',
    '60000',
    'A pending publication or unapplied Kafka message older than this makes a read STALE instead of CATCHING_UP.',
    int(1, 86400000),
  ),

  // Reconciliation and repair (docs/reconciliation.md).
  reconcileGraceMs: setting(
    'RECONCILE_GRACE_MS',
    '30000',
    'A difference involving a change younger than this is normal delay, not a discrepancy (orders add the publication reconciler grace and interval).',
    int(0, 86400000),
  ),
  reconcileMaxAttempts: setting(
    'RECONCILE_MAX_ATTEMPTS',
    '3',
    'Attempts of one reconciliation before it reports CATCHING_UP or SCOPE_CHANGED and is retried later.',
    int(1, 100),
  ),
  reconcileRetryBaseMs: setting(
    'RECONCILE_RETRY_BASE_MS',
    '1000',
    'Pause after the first attempt that found the scope changing or the projection catching up; doubles with jitter.',
    int(1, 600000),
  ),
  reconcileRetryMaxMs: setting('RECONCILE_RETRY_MAX_MS', '10000', 'Longest pause between reconciliation attempts.', int(1, 600000)),
  reconcileCatchUpWaitMs: setting(
    'RECONCILE_CATCH_UP_WAIT_MS',
    '10000',
    'How long one attempt waits for the projector to apply what is already on Kafka before calling the scope CATCHING_UP.',
    int(0, 600000),
  ),
  reconcileBucketCount: setting(
    'RECONCILE_BUCKET_COUNT',
    '256',
    'Buckets of the bucketed digest comparison (large scopes compare bucket digests, then only mismatching buckets per record).',
    int(1, 65536),
  ),
  reconcileDirectCompareMax: setting(
    'RECONCILE_DIRECT_COMPARE_MAX',
    '5000',
    'Scopes with at most this many records are compared record by record without buckets.',
    int(0, 10000000),
  ),
  reconcileIntervalMs: setting(
    'RECONCILE_INTERVAL_MS',
    '300000',
    'Pause between scheduled reconciliation passes of the reconciler role.',
    int(100, 86400000),
  ),
  reconcileQuietMs: setting(
    'RECONCILE_QUIET_MS',
    '600000',
    'A campaign or order hour without changes for this long counts as completed and is reconciled by the schedule.',
    int(0, 604800000),
  ),
  reconcileLookbackMs: setting(
    'RECONCILE_LOOKBACK_MS',
    '604800000',
    'Only scopes changed within this period are scheduled (older ones were reconciled when they completed).',
    int(60000, 31536000000),
  ),
  reconcileScopesPerPass: setting('RECONCILE_SCOPES_PER_PASS', '10', 'Most scopes one scheduled pass reconciles.', int(1, 10000)),
  reconcileExpiredPollMs: setting(
    'RECONCILE_EXPIRED_POLL_MS',
    '5000',
    'How often the reconciler role looks for events that expired on Kafka before the projector applied them ' +
      '(between its passes), to reconcile and repair their window at once.',
    int(100, 3600000),
  ),
  reconcileRotationPeriodMs: setting(
    'RECONCILE_ROTATION_PERIOD_MS',
    '604800000',
    'Every campaign and order hour is re-verified at CONTENT level within this period, changed or not (a scope is ' +
      'due at half of it, oldest verification first); 0 turns the rotation off.',
    int(0, 31536000000),
  ),
  reconcileRotationRowsPerHour: setting(
    'RECONCILE_ROTATION_ROWS_PER_HOUR',
    '5000000',
    'Records the rotation may reconcile per hour (each pass takes its share, at least one scope); must cover every scope twice per rotation period.',
    int(1, 10000000000),
  ),
  repairEventsPerSecond: setting(
    'REPAIR_EVENTS_PER_SECOND',
    '200',
    'Rate limit of replayed events and tombstones (they share the topic and the projector with live traffic).',
    int(1, 1000000),
  ),
  rebuildRowsPerSecond: setting(
    'REBUILD_ROWS_PER_SECOND',
    '50000',
    'Rate limit of rows a rebuild loads from the authoritative stores into a shadow table.',
    int(1, 10000000),
  ),
  repairVerifyTimeoutMs: setting(
    'REPAIR_VERIFY_TIMEOUT_MS',
    '300000',
    'A repair not verified within this time is marked FAILED and its discrepancy reopened.',
    int(1000, 86400000),
  ),
  repairWaitMs: setting(
    'REPAIR_WAIT_MS',
    '15000',
    'How long the repair and removeUnexpectedRows mutations wait for verification before returning (it continues in the background).',
    int(0, 600000),
  ),
  rebuildWaitMs: setting(
    'REBUILD_WAIT_MS',
    '30000',
    'How long rebuildProjection waits for the rebuild to finish before returning its current state.',
    int(0, 3600000),
  ),
  rebuildCatchUpMarginMs: setting(
    'REBUILD_CATCH_UP_MARGIN_MS',
    '60000',
    'Clock margin when a rebuild copies rows that reached the live table during the rebuild (by their ingest time).',
    int(0, 3600000),
  ),
  rebuildStaleAfterMs: setting(
    'REBUILD_STALE_AFTER_MS',
    '60000',
    'A RUNNING rebuild without a heartbeat for this long (it beats every quarter of it) is taken for one whose process ' +
      'died: rolled back before its swap, resumed after it, by the reconciler or the next rebuild.',
    int(10000, 86400000),
  ),

  // Tracing (docs/operators.md, "Traces"): off unless an exporter is set.
  tracingExporter: setting(
    'TRACING_EXPORTER',
    'none',
    'none | otlp. With otlp, spans (GraphQL operation, transaction, relay send, projector insert) go to TRACING_OTLP_URL.',
    z.enum(['none', 'otlp']),
  ),
  tracingOtlpUrl: setting(
    'TRACING_OTLP_URL',
    'http://127.0.0.1:4318/v1/traces',
    'OTLP/HTTP traces endpoint of a collector (JSON).',
    z.string().url(),
  ),
  tracingServiceName: setting(
    'TRACING_SERVICE_NAME',
    'tidemark',
    'service.name of the spans this process sends.',
    z.string().min(1).max(100),
  ),
  tracingSampleRatio: setting(
    'TRACING_SAMPLE_RATIO',
    '1',
    'Share of new traces recorded (0..1); a trace started elsewhere keeps its parent decision.',
    z.coerce.number().min(0).max(1),
  ),

  stackManage: setting(
    'STACK_MANAGE',
    undefined,
    'Let `npm start`/`npm test` install and start missing local engines. Default: true when TIDEMARK_ENV=development, ' +
      'false otherwise (production never tries root logins or apt-get unless asked).',
    bool.optional(),
  ),
  stackDir: setting('STACK_DIR', '.tidemark', 'Folder of local engine data, configs and logs (git-ignored).', z.string().min(1)),
  stackMysqlSecondPort: setting(
    'STACK_MYSQL_SECOND_PORT',
    '3307',
    'Port of the second local MariaDB server the stack manager runs beside MYSQL_HOST (data in <STACK_DIR>/mariadb-<port>), ' +
      'where tests put fitness shard 1 so every suite spans two servers; 0: none (docs/sharding.md).',
    int(0, 65535),
  ),
} as const;

/** Why a production process without a consistency-token secret refuses to start (also thrown by consistencyKey). */
export const CONSISTENCY_SECRET_PROBLEM =
  'Set CONSISTENCY_TOKEN_SECRET (at least 32 characters, the same on every gateway): consistency tokens are MACed with it, ' +
  'or with a key derived from AUTH_JWT_SECRET, which this deployment does not set.';

type Table = typeof settingsTable;
type Parsed = { [K in keyof Table]: z.output<Table[K]['schema']> };
type Derived = 'stackManage' | 'graphqlIntrospection' | 'graphqlExplorer';
type DerivedNumber = 'kafkaCompactionSegmentMs' | 'kafkaMaxCompactionLagMs' | 'kafkaMinCleanableDirtyRatio';
/** The parsed table, with the settings whose default derives from others (stackManage, ...) always set. */
export type Settings = Omit<Parsed, Derived | DerivedNumber> & { [K in Derived]: boolean } & { [K in DerivedNumber]: number };

// Settings whose value is never echoed in an error: secrets, and URLs that may carry credentials
// (those are shown without them).
const SECRET_SETTINGS = new Set([
  'AUTH_JWT_SECRET',
  'ERASURE_HASH_SECRET',
  'MYSQL_PASSWORD',
  'FITNESS_SHARDS',
  'PG_PASSWORD',
  'CLICKHOUSE_PASSWORD',
  'CLICKHOUSE_READ_PASSWORD',
  'KAFKA_SASL_PASSWORD',
]);

/** How a bad value is shown in a ConfigError: secrets never, a URL without its user and password. */
export function shownValue(env: string, raw: string | undefined): string {
  if (SECRET_SETTINGS.has(env)) return '(value hidden)';
  return JSON.stringify(withoutCredentials(raw ?? ''));
}

/** A URL (or any text holding one) with user:password@ removed. */
export function withoutCredentials(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1');
}

/** Every problem of the settings at once, as the shared typed error (CONFIG_INVALID). */
export class ConfigError extends TidemarkError {
  declare readonly code: 'CONFIG_INVALID';
  constructor(readonly problems: string[]) {
    super('CONFIG_INVALID', `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`, { retriable: false });
    this.name = 'ConfigError';
  }
}

/** Reads and validates every setting; throws one ConfigError listing every problem. */
export function loadSettings(given: NodeJS.ProcessEnv = process.env, overrides: Partial<Settings> = {}): Settings {
  // Production unless told otherwise: development (tokens printed, stack traces, apt-get) must be asked for.
  const env = given;
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
    else
      problems.push(
        `${s.env}=${shownValue(s.env, raw)} is invalid (${parsed.error.issues.map((i) => i.message).join('; ')}). Set ${s.env}: ${s.description}`,
      );
  }
  // Derived defaults: the stack manager installs and starts engines only in development unless asked.
  out.stackManage ??= out.env === 'development';
  // Compaction of personal topics: quick on a local stack (an erasure completes in minutes), calm in production.
  const local = out.env !== 'production';
  out.kafkaCompactionSegmentMs ??= local ? 10_000 : 3_600_000;
  out.kafkaMaxCompactionLagMs ??= local ? 10_000 : 86_400_000;
  out.kafkaMinCleanableDirtyRatio ??= local ? 0.01 : 0.5;
  // Introspection and the explorer are off in production unless enabled.
  out.graphqlIntrospection ??= out.env !== 'production';
  out.graphqlExplorer ??= out.env !== 'production';
  if (!('fitnessShardDatabases' in overrides)) problems.push(...databasesOfShardUrls(out, env));
  const settings = out as Settings;
  if (problems.length === 0) problems.push(...crossCheck(settings));
  if (problems.length) throw new ConfigError(problems);
  return settings;
}

/**
 * FITNESS_SHARDS names each shard's database: fitnessShardDatabases is set from it, so the many readers
 * of the shard databases need not know where the list came from. A FITNESS_SHARD_DATABASES given too
 * must agree (settingsToEnv writes both), unless it is its default (a .env copied from .env.example).
 */
function databasesOfShardUrls(out: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  const urls = out.fitnessShards;
  if (!Array.isArray(urls) || urls.length === 0) return [];
  const fromUrls = shardUrlDatabases(urls as string[]);
  const given = out.fitnessShardDatabases;
  out.fitnessShardDatabases = fromUrls;
  const raw = env[settingsTable.fitnessShardDatabases.env];
  if (raw === undefined || raw === settingsTable.fitnessShardDatabases.default || !Array.isArray(given) || given.join() === fromUrls.join())
    return [];
  return [
    `FITNESS_SHARD_DATABASES (${given.join(',')}) disagrees with the databases of FITNESS_SHARDS (${fromUrls.join(',')}): ` +
      "unset FITNESS_SHARD_DATABASES, FITNESS_SHARDS names each shard's database.",
  ];
}

function crossCheck(s: Settings): string[] {
  const p: string[] = [];
  if (s.relayLeaseMs <= s.relayPublishTimeoutMs)
    p.push(
      `RELAY_LEASE_MS (${s.relayLeaseMs}) must be greater than RELAY_PUBLISH_TIMEOUT_MS (${s.relayPublishTimeoutMs}), ` +
        'or a slow healthy publish is reclaimed and sent twice.',
    );
  if (s.relayBackoffMaxMs < s.relayBackoffBaseMs)
    p.push(`RELAY_BACKOFF_MAX_MS (${s.relayBackoffMaxMs}) must be at least RELAY_BACKOFF_BASE_MS (${s.relayBackoffBaseMs}).`);
  if (s.kafkaFirstDeadlineMs < s.kafkaFirstAttemptTimeoutMs)
    p.push(
      `KAFKA_FIRST_DEADLINE_MS (${s.kafkaFirstDeadlineMs}) must be at least KAFKA_FIRST_ATTEMPT_TIMEOUT_MS (${s.kafkaFirstAttemptTimeoutMs}).`,
    );
  if (s.env === 'production' && !s.authJwtSecret && !s.authJwksUrl)
    p.push('Set AUTH_JWT_SECRET or AUTH_JWKS_URL: production needs a way to verify bearer tokens.');
  if (s.authJwtSecret && s.authJwksUrl) p.push('Set only one of AUTH_JWT_SECRET and AUTH_JWKS_URL.');
  if (s.env === 'production' && !s.consistencyTokenSecret && !s.authJwtSecret) p.push(CONSISTENCY_SECRET_PROBLEM);
  if (s.consistencyWaitDefaultMs > s.consistencyWaitMaxMs)
    p.push(
      `CONSISTENCY_WAIT_DEFAULT_MS (${s.consistencyWaitDefaultMs}) must not exceed CONSISTENCY_WAIT_MAX_MS (${s.consistencyWaitMaxMs}).`,
    );
  const symmetric = s.authAlgorithms?.filter((a) => a.startsWith('HS')) ?? [];
  if (s.authJwksUrl && symmetric.length)
    p.push(`AUTH_ALGORITHMS lists ${symmetric.join(', ')}, which needs a shared secret, not AUTH_JWKS_URL.`);
  if (s.authJwtSecret && s.authAlgorithms?.some((a) => !a.startsWith('HS')))
    p.push('AUTH_ALGORITHMS with AUTH_JWT_SECRET may list only HS256, HS384 and HS512.');
  if (s.projectorRetryMaxMs < s.projectorRetryBaseMs)
    p.push(`PROJECTOR_RETRY_MAX_MS (${s.projectorRetryMaxMs}) must be at least PROJECTOR_RETRY_BASE_MS (${s.projectorRetryBaseMs}).`);
  if (s.relayOutageBackoffMaxMs < s.relayOutageBackoffBaseMs)
    p.push(
      `RELAY_OUTAGE_BACKOFF_MAX_MS (${s.relayOutageBackoffMaxMs}) must be at least RELAY_OUTAGE_BACKOFF_BASE_MS (${s.relayOutageBackoffBaseMs}).`,
    );
  if (s.kafkaMinInsyncReplicas > s.kafkaReplicationFactor)
    p.push(
      `KAFKA_MIN_INSYNC_REPLICAS (${s.kafkaMinInsyncReplicas}) cannot exceed KAFKA_REPLICATION_FACTOR (${s.kafkaReplicationFactor}): ` +
        'no write with acks=all could succeed.',
    );
  p.push(...embeddedClickHouseRoles(s));
  if (s.clickhouseCluster && s.clickhouseEngine === 'embedded')
    p.push('CLICKHOUSE_CLUSTER needs CLICKHOUSE_ENGINE=server: the embedded ClickHouse is one process, not a cluster.');
  if (new Set(s.fitnessShardDatabases).size !== s.fitnessShardDatabases.length)
    p.push(
      `${s.fitnessShards.length ? 'FITNESS_SHARDS' : 'FITNESS_SHARD_DATABASES'} lists a database twice ` +
        '(each shard needs a database name of its own, also on separate servers: the name identifies the shard).',
    );
  p.push(...transportProblems(s));
  if (s.env === 'development')
    for (const [env, host] of [
      ['HTTP_HOST', s.httpHost],
      ['OPS_HOST', s.opsHost],
    ] as const)
      if (!isLoopbackHost(host))
        p.push(
          `${env} must be a loopback address (127.0.0.1, ::1, localhost) with TIDEMARK_ENV=development: development hands out tokens.`,
        );
  if (s.env === 'production' && !s.allowInsecureTransport)
    p.push(
      ...insecureProductionSettings(s, DEFAULT_PASSWORDS).map((w) => `${w} Fix it, or set ALLOW_INSECURE_TRANSPORT=true to start anyway.`),
    );
  return p;
}

/** The local stack's read-only ClickHouse user (devstack/clickhouse/users.xml is rendered from this). */
export const LOCAL_CLICKHOUSE_READER = { user: 'tidemark_reader', password: 'tidemark-reader-local' } as const;

/** The passwords of the local stack, refused in production. */
const DEFAULT_PASSWORDS = {
  mysql: settingsTable.mysqlPassword.default!,
  postgres: settingsTable.pgPassword.default!,
  clickhouseReader: LOCAL_CLICKHOUSE_READER.password,
};

/** Settings that are valid but unwise; logged as warnings at start-up. */
export function settingsWarnings(s: Settings): string[] {
  const w: string[] = [];
  if (s.env !== 'development' && s.kafkaReplicationFactor === 1)
    w.push(
      'KAFKA_REPLICATION_FACTOR=1 outside development: losing one broker loses (or blocks) every topic ' +
        'Tidemark created; use 3 with KAFKA_MIN_INSYNC_REPLICAS=2.',
    );
  if (s.kafkaReplicationFactor > 1 && s.kafkaMinInsyncReplicas === 1)
    w.push(
      `KAFKA_MIN_INSYNC_REPLICAS=1 with a replication factor of ${s.kafkaReplicationFactor}: an acknowledged write may live on one broker only.`,
    );
  w.push(...transportWarnings(s));
  if (s.env === 'production' && s.allowInsecureTransport)
    w.push(...insecureProductionSettings(s, DEFAULT_PASSWORDS).map((i) => `ALLOW_INSECURE_TRANSPORT=true: ${i}`));
  return w;
}

/**
 * The embedded ClickHouse lives inside one process and libchdb locks its data directory, so the roles
 * that use ClickHouse (the gateway's reads, the projector, the reconcilers) cannot be spread over
 * processes with it: a process runs all of them or none (a relay-only process touches no projection;
 * it only opens its own CLICKHOUSE_EMBEDDED_PATH for /readyz).
 */
function embeddedClickHouseRoles(s: Settings): string[] {
  if (s.clickhouseEngine !== 'embedded') return [];
  const missing = (['gateway', 'projector', 'reconciler'] as const).filter((r) => !s.roles.includes(r));
  if (missing.length === 0 || missing.length === 3) return [];
  return [
    `CLICKHOUSE_ENGINE=embedded runs ClickHouse inside one process, but TIDEMARK_ROLES=${s.roles.join(',')} leaves out ${missing.join(', ')}, ` +
      'which would need the same embedded data directory from another process. ' +
      'Run every role in this process (TIDEMARK_ROLES=gateway,relay,projector,reconciler) or, to split roles across processes, ' +
      'set CLICKHOUSE_ENGINE=server and CLICKHOUSE_URL to a ClickHouse server.',
  ];
}

/**
 * The environment of a command a developer runs on this machine (`npm run stack`, `migrate`, `token`,
 * `npx tidemark`): development unless TIDEMARK_ENV says otherwise. These commands serve nothing; a
 * server (src/main.ts) is production unless told.
 */
export function localToolEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return env.TIDEMARK_ENV === undefined ? { ...env, TIDEMARK_ENV: 'development' } : env;
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
    env[def.env] = Array.isArray(v)
      ? v.join(',')
      : typeof v === 'object'
        ? Object.entries(v)
            .map(([k, x]) => `${k}=${String(x)}`)
            .join(',') // a domain=strategy map
        : String(v);
  }
  return env;
}
