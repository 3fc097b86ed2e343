// `npm run test:engines`: every suite that touches ClickHouse or Kafka, again, against the current
// engine generation: ClickHouse 26 embedded in each test process (chdb) and a Kafka 4 broker the stack
// manager runs beside the 3.9 one (127.0.0.1:9192, data in <STACK_DIR>/kafka-4). It brings that stack
// up, prints the versions it runs against (SELECT version(), the broker's release and what kafkajs
// negotiates with it), then runs jest with the same settings in every worker.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, stackPath } from '../../src/config/paths';
import { loadSettings, type Settings } from '../../src/config/settings';
import { kafkaService } from '../../src/devstack/kafka';
import { brokerApiVersions, kafkajsAgainst } from '../../src/devstack/kafkaApiVersions';
import { lineOfPid, KAFKA_LINES } from '../../src/devstack/kafkaBroker';
import { stackServices, stackUp } from '../../src/devstack/stack';
import { livePid } from '../../src/devstack/pidFile';
import { fromClickHouse } from '../../src/infra/clickhouse/fromClickHouse';
import { exitWith, runJestInt } from '../support/jestRunner';

/** The engines this run pins; test processes read them from the environment like any setting. */
export const ENGINES_ENV = {
  KAFKA_VERSION: '4',
  KAFKA_BROKERS: '127.0.0.1:9192',
  CLICKHOUSE_ENGINE: 'embedded',
  CLICKHOUSE_EMBEDDED_PATH: '.tidemark/engines/ch-stack',
} as const;

/**
 * Suites that touch neither ClickHouse nor Kafka (or only through the product's generic client paths
 * proven by the others); the fault suites (they stop a ClickHouse server and run role processes on
 * their own engines); `npm start -- --clickhouse embedded`, which runs on the embedded ClickHouse in the
 * plain jest run already; the tracing, role-drain, gateway-signal and parked-at-limit e2e suites (roles in separate processes, which the
 * embedded engine refuses by design: one process per data directory); the console's browser test (what it proves is the page); promtool;
 * the secure-transport suites (they start private TLS engines of their own, whatever this run pins);
 * the local ClickHouse cluster's suite (its own 18.16 servers and ZooKeeper, whatever this run pins);
 * the rolling upgrade of the event format (a minute and a half of deploy steps; what it needs of these
 * engines, the version announcement in Kafka 4's group metadata and the parked and replayed newer
 * event, is proven here by schemaVersionGate.int and schemaUpgrade.e2e); the container image's replay (four role
 * processes from the built image, on the server engines).
 */
const NOT_ENGINE_SUITES = [
  '/test/faults/',
  '/test/transport/',
  'test/e2e/embeddedStart.e2e.spec.ts',
  'test/e2e/tracing.e2e.spec.ts',
  'test/e2e/roleDrain.e2e.spec.ts',
  'test/e2e/gatewaySignals.e2e.spec.ts',
  'test/e2e/reconcilerSignals.e2e.spec.ts',
  'test/e2e/parkedAtLimit.e2e.spec.ts',
  'test/e2e/console.e2e.spec.ts',
  'test/ops/alerts.int.spec.ts',
  'src/devstack/stack.int.spec.ts',
  'src/devstack/clickhouseCluster.int.spec.ts',
  'src/domains/fitness/fitnessWrites.int.spec.ts',
  'src/domains/fitness/fitnessIdempotencyAndDeletion.int.spec.ts',
  'src/publication/outbox/outboxDueAt.int.spec.ts',
  'test/e2e/rollingUpgrade.e2e.spec.ts',
  'test/container/',
  'src/relay/retention/retentionLoop.int.spec.ts',
  'src/relay/outbox/outboxMaintenanceLoop.int.spec.ts',
  'src/reconciliation/schedule/ledgerPruningLoop.int.spec.ts',
  'src/reconciliation/ledger/leases.int.spec.ts',
  'test/e2e/jwks.e2e.spec.ts',
];

async function versions(s: Settings): Promise<string[]> {
  const ch = fromClickHouse(s, { database: null });
  let clickhouse: string;
  try {
    const [row] = await (await ch.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' })).json<{ v: string }>();
    clickhouse = `ClickHouse ${row!.v} (embedded, chdb ${chdbVersion()})`;
  } finally {
    await ch.close();
  }
  const [host, port] = s.kafkaBrokers[0]!.split(':') as [string, string];
  const kafka = kafkaService({ settings: s, dir: stackPath(s), root: repoRoot, log: () => undefined });
  const pid = readPidOf(s);
  const line = pid ? lineOfPid(pid) : undefined;
  const release = line
    ? `Kafka ${KAFKA_LINES[line].release}`
    : `a Kafka broker not started by this checkout (KAFKA_VERSION=${s.kafkaVersion} expects ${kafka.release})`;
  const verdicts = kafkajsAgainst(await brokerApiVersions(host, Number(port)));
  const broken = verdicts.filter((v) => v.uses.startsWith('none'));
  const usable = `${verdicts.length - broken.length}/${verdicts.length}`;
  const kafkajs =
    `kafkajs ${packageVersion('kafkajs')}: ${usable} of its APIs negotiate a version with this broker` +
    (broken.length ? `; not: ${broken.map((b) => `${b.api} (${b.uses})`).join(', ')}` : '');
  return [clickhouse, `${release} at ${host}:${port}`, kafkajs];
}

function readPidOf(s: Settings): number | undefined {
  return livePid(join(stackPath(s), KAFKA_LINES[s.kafkaVersion].stackFolder, 'kafka.pid'));
}

function packageVersion(name: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when used, or a path no import can name
  return (require(`${name}/package.json`) as { version: string }).version;
}

function chdbVersion(): string {
  return packageVersion('chdb');
}

async function main(): Promise<number> {
  const env = { ...process.env, ...ENGINES_ENV };
  const s = loadSettings({ TIDEMARK_ENV: 'test', ...env });
  const log = (l: string) => process.stderr.write(`[engines] ${l}\n`);
  // Embedded data of earlier runs (one directory per test process) is never reused.
  rmSync(join(stackPath(s), 'engines'), { recursive: true, force: true });
  await stackUp(stackServices(s, log));
  const lines = await versions(s);
  for (const l of lines) log(`running against ${l}`);
  // Paths given on the command line narrow the run; jest's list options come after them so none swallows them.
  const ignore = NOT_ENGINE_SUITES.map((p) => `--testPathIgnorePatterns=${p}`);
  const status = runJestInt([...process.argv.slice(2), ...ignore], { ...env, TIDEMARK_ENGINES_RUN: '1' });
  for (const l of lines) log(`ran against ${l}`);
  rmSync(join(stackPath(s), 'engines'), { recursive: true, force: true });
  return status;
}

exitWith('test:engines', main);
