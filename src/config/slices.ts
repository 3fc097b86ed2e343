// The settings slices: what each component below src/app reads of the settings, named, so its signature
// says what it depends on (and a test or another caller builds just that). Every slice is a Pick of
// Settings, so the composition root (src/app) keeps passing the whole `settings` object unchanged;
// only src/app, src/config, src/cli, src/devstack and main.ts import the Settings type itself
// (test/settingsSlices.unit.spec.ts). A component that needs another key adds it to its slice here.
import type { Settings } from './settings';

/** A key of Settings (slices below are Picks of these). */
type Key = keyof Settings;
/** Keys a component reads when present: absent means the default, e.g. plaintext transport. */
type Optional<K extends Key> = Partial<Pick<Settings, K>>;

// ---- transport security (src/infra/tls.ts) ----

type TlsKey =
  | 'mysqlTls'
  | 'mysqlTlsCa'
  | 'mysqlTlsCert'
  | 'mysqlTlsKey'
  | 'pgTls'
  | 'pgTlsCa'
  | 'pgTlsCert'
  | 'pgTlsKey'
  | 'clickhouseUrl'
  | 'clickhouseEngine'
  | 'clickhouseTlsCa'
  | 'clickhouseTlsCert'
  | 'clickhouseTlsKey'
  | 'kafkaSsl'
  | 'kafkaSslCa'
  | 'kafkaSslCert'
  | 'kafkaSslKey'
  | 'kafkaSaslMechanism'
  | 'kafkaSaslUsername'
  | 'kafkaSaslPassword';
/** TLS and SASL of every engine (src/infra/tls.ts), each read only when present. */
export type TransportSecuritySettings = Optional<TlsKey>;

// ---- engines (src/infra) ----

/** TLS and SASL of the Kafka client (src/infra/tls.ts); absent means plaintext, as before. */
export type KafkaSecuritySettings = Optional<
  'kafkaSsl' | 'kafkaSslCa' | 'kafkaSslCert' | 'kafkaSslKey' | 'kafkaSaslMechanism' | 'kafkaSaslUsername' | 'kafkaSaslPassword'
>;
/** The Kafka client and topics (src/infra/kafka/fromKafka.ts). */
export type KafkaSettings = Pick<
  Settings,
  'kafkaBrokers' | 'kafkaClientId' | 'kafkaTopicPrefix' | 'kafkaPartitions' | 'kafkaReplicationFactor' | 'kafkaMinInsyncReplicas'
> &
  KafkaSecuritySettings;
/** Topic creation (ensureTopics) also sets the retention, and the compaction of topics that hold personal data. */
export type KafkaTopicSettings = KafkaSettings &
  Pick<Settings, 'kafkaRetentionMs' | 'kafkaCompactionSegmentMs' | 'kafkaMaxCompactionLagMs' | 'kafkaMinCleanableDirtyRatio'>;

/** The ClickHouse client (src/infra/clickhouse/fromClickHouse.ts). */
export type ClickHouseSettings = Pick<
  Settings,
  | 'clickhouseUrl'
  | 'clickhouseUser'
  | 'clickhousePassword'
  | 'clickhouseDatabase'
  | 'clickhouseEngine'
  | 'clickhouseEmbeddedPath'
  | 'stackDir'
> &
  Optional<'clickhouseTlsCa' | 'clickhouseTlsCert' | 'clickhouseTlsKey' | 'clickhouseCluster'>;

/** One MySQL server and login (src/infra/mysql/shardTargets.ts onServer). */
export type MysqlServerSettings = Pick<Settings, 'mysqlHost' | 'mysqlPort' | 'mysqlUser' | 'mysqlPassword'>;
/** A MySQL pool (src/infra/mysql/fromMysql.ts), with its TLS when set. */
export type MysqlConnectionSettings = MysqlServerSettings &
  Pick<Settings, 'dbPoolMax'> &
  Optional<'mysqlTls' | 'mysqlTlsCa' | 'mysqlTlsCert' | 'mysqlTlsKey'>;
/** Where each fitness shard lives (src/infra/mysql/shardTargets.ts). */
export type ShardTargetSettings = MysqlServerSettings & Pick<Settings, 'fitnessShardDatabases' | 'fitnessShards'>;

/** A PostgreSQL pool (src/infra/postgres/fromPostgres.ts), with its TLS when set. */
export type PostgresConnectionSettings = Pick<Settings, 'pgHost' | 'pgPort' | 'pgUser' | 'pgPassword' | 'dbPoolMax'> &
  Optional<'pgTls' | 'pgTlsCa' | 'pgTlsCert' | 'pgTlsKey'>;
/** The orders database's pool (fromPostgres). */
export type PostgresSettings = PostgresConnectionSettings & Pick<Settings, 'pgDatabase'>;

/** The databases whose migrations are read (src/infra/migrationStatus.ts). */
export type MigrationStatusSettings = Pick<Settings, 'pgDatabase' | 'clickhouseDatabase'>;

// ---- auth (src/auth) ----

/** The token options (src/auth/jwtOptions.ts): issuer, audience, algorithms and claim names. */
export type JwtSettings = Pick<
  Settings,
  | 'authIssuer'
  | 'authAudience'
  | 'authRolesClaim'
  | 'authAlgorithms'
  | 'authCustomerIdClaim'
  | 'authSchoolIdsClaim'
  | 'authUserIdClaim'
  | 'authServiceSubjects'
>;
/** Where the development secret is kept (src/auth/developmentTokens.ts). */
export type StackDirSettings = Pick<Settings, 'stackDir'>;
/** Which secret verifies tokens: AUTH_JWT_SECRET, a JWKS URL, or in development the kept one. */
export type DevelopmentSecretSettings = Pick<Settings, 'env' | 'authJwtSecret' | 'authJwksUrl'> & StackDirSettings;
/** What minting a token needs: the secret, where a development one is kept, and the token options. */
export type MintSettings = DevelopmentSecretSettings & JwtSettings;

// ---- projections (src/projections) ----

/** The key consistency tokens are MACed with (src/projections/consistency/consistencyKey.ts). */
export type ConsistencyKeySettings = Pick<Settings, 'env' | 'consistencyTokenSecret' | 'authJwtSecret' | 'stackDir'>;
/** The projector's consumer group (src/projections/projectorGroup.ts). */
export type ProjectorGroupSettings = Pick<Settings, 'projectorGroupId' | 'kafkaTopicPrefix'>;

/** The newest event schema version this process knows (src/publication/schemaVersionGate.ts, docs/upgrades.md). */
export type EventSchemaSettings = Partial<Pick<Settings, 'eventSchemaVersionCap'>>;

/** How each domain's events are published: the per-domain map and the settings of domains that have their own. */
export type PublicationStrategySettings = Pick<Settings, 'publicationStrategies' | 'fitnessStrategy' | 'ordersStrategy'>;

// ---- erasure (src/erasure) ----

/** The key of erasure's keyed hashes (src/erasure/erasureKey.ts). */
export type ErasureKeySettings = Pick<Settings, 'env' | 'erasureHashSecret' | 'consistencyTokenSecret' | 'authJwtSecret' | 'stackDir'>;
/** The erasure runner and service (src/erasure): deadline, rate, polling, retry and lease. */
export type ErasureSettings = Pick<
  Settings,
  'erasureDeadlineHours' | 'erasuresPerMinute' | 'erasurePollMs' | 'erasureRetryMs' | 'erasureLeaseMs' | 'erasureGuardRefreshMs'
>;
/** Retention of what erasure does not remove by request (docs/erasure.md, "Retention"). */
export type ErasureRetentionSettings = Pick<Settings, 'fitnessDeletionLogRetentionDays' | 'reconciliationLedgerRetentionDays'>;
