// Debezium as a user would run it beside Tidemark's outbox: a Kafka Connect standalone worker
// (org.apache.kafka.connect.cli.ConnectStandalone, no cluster, offsets in a file) running the MySQL
// connector over a MariaDB binlog with the outbox event router SMT, publishing to our broker. The jars
// come from Maven Central through devstack/debezium/pom.xml and mavenJars() (Java 17 and Maven from
// Debian when absent), the JVM runs detached with a pid file like the stack's Kafka and ZooKeeper.
// Everything the worker writes (configs, offsets, schema history, log) lives in one folder per run.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { livePid, readPid, stopPid } from '../../src/devstack/pidFile';
import { mavenJars, spawnDetached } from '../../src/devstack/system';
import { freePort, repoRoot } from './processes';

export const DEBEZIUM_RELEASE = '3.6.1.Final';
/**
 * The Connect worker's release: the broker's line (Debezium 3.6 is built on 4.3; 4.3.0 runs the same
 * way). A connector config that fails validation stops a 3.9.1 or 4.3.0 worker with only
 * "NullPointerException: Cannot invoke ConfigValueInfo.errors() ... ConfigInfo.configValue() is null"
 * (AbstractHerder.maybeAddConfigErrors, KAFKA-20693); PUT the properties as JSON to a worker's
 * /connector-plugins/<class>/config/validate to see the real error.
 */
export const CONNECT_RELEASE = '3.9.1';

export interface DebeziumSource {
  host: string;
  port: number;
  database: string;
  table: string;
  user: string;
  password: string;
}

export interface DebeziumWorker {
  pid: number;
  dir: string;
  logFile: string;
  /** The Connect REST address (status of the connector and its task). */
  restUrl: string;
  /** Stops the JVM (pid file; Connect flushes offsets on a graceful stop) and deletes the folder unless `keep`. */
  stop(o?: { keep?: boolean }): Promise<void>;
}

function properties(entries: Record<string, string | number>): string {
  const lines = Object.entries(entries).map(([k, v]) => `${k}=${String(v).replace(/\\/g, '\\\\')}`);
  return `# Written by bench/lib/debeziumConnect.ts for one benchmark run.\n${lines.join('\n')}\n`;
}

/** Resolves the jars once (devstack/debezium/lib-<debezium>-<connect>, git-ignored); returns the folder. */
export function debeziumJars(log: (l: string) => void): string {
  const pomDir = join(repoRoot, 'devstack', 'debezium');
  return mavenJars(
    {
      pom: join(pomDir, 'pom.xml'),
      lib: join(pomDir, `lib-${DEBEZIUM_RELEASE}-${CONNECT_RELEASE}`),
      marker: `debezium-connector-mysql-${DEBEZIUM_RELEASE}.jar`,
      properties: { 'debezium.version': DEBEZIUM_RELEASE, 'kafka.version': CONNECT_RELEASE },
      what: `Debezium ${DEBEZIUM_RELEASE} and Kafka Connect ${CONNECT_RELEASE} (devstack/debezium/pom.xml)`,
    },
    log,
  );
}

/**
 * Starts the worker with one connector: snapshot.mode=no_data (3.6 no longer accepts `never`: "Value
 * must be one of always, initial_only, configuration_based, when_needed, initial, custom, no_data,
 * recovery"), so a first start records the table's schema and the current binlog position without
 * reading a row, and a resumed start streams the binlog from the stored offset. The outbox table only, every created row routed by the event
 * router to the topic its `topic` column names, keyed by `message_key`, valued by `message_value` as
 * the very same string our relay sends. Producer settings are Connect's defaults for source tasks.
 */
export async function startDebezium(o: {
  dir: string;
  source: DebeziumSource;
  brokers: string[];
  serverId: number;
  /** Start again on the folder of a stopped worker (its offsets and schema history) instead of a fresh one. */
  resume?: boolean;
  log: (l: string) => void;
}): Promise<DebeziumWorker> {
  const lib = debeziumJars(o.log);
  const pidFile = join(o.dir, 'connect.pid');
  if (livePid(pidFile)) await stopPid(pidFile, 30000); // a run that died left its worker behind
  if (!o.resume) rmSync(o.dir, { recursive: true, force: true });
  mkdirSync(o.dir, { recursive: true });
  const restPort = await freePort();
  const worker = join(o.dir, 'connect-standalone.properties');
  const connector = join(o.dir, 'outbox-connector.properties');
  writeFileSync(
    worker,
    properties({
      'bootstrap.servers': o.brokers.join(','),
      'key.converter': 'org.apache.kafka.connect.storage.StringConverter',
      'value.converter': 'org.apache.kafka.connect.storage.StringConverter',
      'offset.storage.file.filename': join(o.dir, 'connect.offsets'),
      'offset.flush.interval.ms': 1000,
      listeners: `http://127.0.0.1:${restPort}`,
    }),
  );
  const s = o.source;
  writeFileSync(
    connector,
    properties({
      name: 'tidemark-outbox',
      'connector.class': 'io.debezium.connector.mysql.MySqlConnector',
      'tasks.max': 1,
      'database.hostname': s.host,
      'database.port': s.port,
      'database.user': s.user,
      'database.password': s.password,
      'database.server.id': o.serverId,
      'database.ssl.mode': 'disabled',
      'topic.prefix': 'tidemark-bench-dbz',
      'database.include.list': s.database,
      'table.include.list': `${s.database}.${s.table}`,
      'snapshot.mode': 'no_data',
      // The schema-only snapshot otherwise wants a global read lock (RELOAD) or LOCK TABLES; the reader
      // has only the replication grants, and nothing changes the schema while it snapshots.
      'snapshot.locking.mode': 'none',
      'schema.history.internal': 'io.debezium.storage.file.history.FileSchemaHistory',
      'schema.history.internal.file.filename': join(o.dir, 'schema-history.dat'),
      'include.schema.changes': 'false',
      'tombstones.on.delete': 'false',
      transforms: 'outbox',
      'transforms.outbox.type': 'io.debezium.transforms.outbox.EventRouter',
      'transforms.outbox.table.field.event.id': 'event_id',
      'transforms.outbox.table.field.event.key': 'message_key',
      'transforms.outbox.table.field.event.payload': 'message_value',
      'transforms.outbox.route.by.field': 'topic',
      'transforms.outbox.route.topic.replacement': '${routedByValue}',
      'transforms.outbox.table.fields.additional.placement': 'domain:header:domain,aggregate_id:header:aggregateId,headers:header:headers',
      // Our relay updates rows (claims, SENT); a reader of a table a relay also works would see those too.
      'transforms.outbox.table.op.invalid.behavior': 'warn',
    }),
  );
  const logFile = join(o.dir, 'connect.log');
  // slf4j-simple writes to stderr (the log file): INFO for Debezium, WARN for the Connect/Kafka internals.
  const logging = [
    'defaultLogLevel=info',
    'log.org.apache.kafka=warn',
    'log.org.reflections=error',
    'log.org.eclipse.jetty=warn',
    'showDateTime=true',
  ];
  const jvm = ['-Xms256m', '-Xmx1g', ...logging.map((l) => `-Dorg.slf4j.simpleLogger.${l}`), '-cp', `${lib}/*`];
  o.log(`starting Kafka Connect ${CONNECT_RELEASE} standalone with Debezium ${DEBEZIUM_RELEASE} (log: ${logFile})`);
  spawnDetached('java', [...jvm, 'org.apache.kafka.connect.cli.ConnectStandalone', worker, connector], { cwd: o.dir, logFile, pidFile });
  return {
    pid: readPid(pidFile)!,
    dir: o.dir,
    logFile,
    restUrl: `http://127.0.0.1:${restPort}`,
    async stop(so = {}) {
      await stopPid(pidFile, 30000);
      if (!so.keep) rmSync(o.dir, { recursive: true, force: true });
    },
  };
}

/** The connector's and its task's states from the worker's REST API (undefined while it is not up). */
export async function connectorState(
  w: DebeziumWorker,
): Promise<{ connector: string; tasks: { state: string; trace?: string }[] } | undefined> {
  const res = await fetch(`${w.restUrl}/connectors/tidemark-outbox/status`).catch(() => undefined);
  if (!res?.ok) return undefined;
  const body = (await res.json()) as { connector: { state: string }; tasks: { state: string; trace?: string }[] };
  return { connector: body.connector.state, tasks: body.tasks };
}
