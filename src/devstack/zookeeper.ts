// A standalone ZooKeeper for the local ClickHouse cluster (replicated tables and ON CLUSTER DDL need
// one): Apache ZooKeeper from Maven Central (devstack/zookeeper/pom.xml, resolved like the Kafka broker),
// run as ZooKeeperServerMain with a generated zoo.cfg, data and pid file in its own folder. Its admin
// HTTP server is off (it would take port 8080); the `srvr` four-letter word is the health check.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { waitFor } from '../shared/lifecycle';
import { livePid, stopPid } from './pidFile';
import { mavenJars, spawnDetached } from './system';

export const ZOOKEEPER_RELEASE = '3.9.5';

export interface ZooKeeperServer {
  /** host:port clients connect to. */
  address: string;
  /** True when a ZooKeeper serves on the port (`srvr` answers with its version). */
  answers(): Promise<boolean>;
  /** Starts ours unless one answers or ours is still starting; does not wait (see ready). */
  start(): Promise<void>;
  /** Waits until it answers. */
  ready(): Promise<void>;
  /** Stops the server this stack manager started (pid file); one it did not start is left running. */
  down(): Promise<'stopped' | 'not-ours' | 'not-running'>;
}

/** Sends a four-letter word and returns everything the server writes before it closes the connection. */
export function fourLetterWord(host: string, port: number, word: string, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve) => {
    const sock = createConnection({ host, port });
    let out = '';
    const done = () => {
      sock.destroy();
      resolve(out);
    };
    sock.setTimeout(timeoutMs, done);
    sock.once('connect', () => sock.write(word));
    sock.on('data', (d: Buffer) => (out += d.toString('utf8')));
    sock.once('end', done);
    sock.once('error', done);
  });
}

export function zookeeperServer(o: { home: string; root: string; port: number; log: (l: string) => void }): ZooKeeperServer {
  const host = '127.0.0.1';
  const pidFile = join(o.home, 'zookeeper.pid');
  // "Zookeeper version: ..." only once it serves; "not currently serving requests" while it loads its data.
  const answers = async () => (await fourLetterWord(host, o.port, 'srvr')).includes('Zookeeper version');

  async function start(): Promise<void> {
    if (livePid(pidFile) || (await answers())) return;
    const pomDir = join(o.root, 'devstack', 'zookeeper');
    const lib = mavenJars(
      {
        pom: join(pomDir, 'pom.xml'),
        lib: join(pomDir, `lib-${ZOOKEEPER_RELEASE}`),
        marker: `zookeeper-${ZOOKEEPER_RELEASE}.jar`,
        properties: { 'zookeeper.version': ZOOKEEPER_RELEASE },
        what: `ZooKeeper ${ZOOKEEPER_RELEASE} (devstack/zookeeper/pom.xml)`,
      },
      o.log,
    );
    const dataDir = join(o.home, 'data');
    mkdirSync(dataDir, { recursive: true });
    const cfg = join(o.home, 'zoo.cfg');
    writeFileSync(
      cfg,
      [
        '# Written by the Tidemark stack manager (src/devstack/zookeeper.ts); edits are overwritten.',
        // tickTime 1 s allows sessions of 2..20 s; the servers ask for 10 s (cluster.xml), so a SIGKILLed
        // server's session (its replica's is_active node) is gone within 10 s.
        'tickTime=1000',
        `dataDir=${dataDir}`,
        `clientPort=${o.port}`,
        `clientPortAddress=${host}`,
        'maxClientCnxns=0',
        'admin.enableServer=false',
        '4lw.commands.whitelist=srvr,ruok,mntr',
        // A test cluster's snapshots and logs need not be kept: purge hourly, keep the newest 3.
        'autopurge.snapRetainCount=3',
        'autopurge.purgeInterval=1',
        '',
      ].join('\n'),
    );
    // ClickHouse 18.16's client sends the old connect request (no read-only flag); ZooKeeperServer warns on every session.
    const quiet = '-Dorg.slf4j.simpleLogger.log.org.apache.zookeeper.server.ZooKeeperServer=error';
    const logging = ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn', '-Dorg.slf4j.simpleLogger.showDateTime=true', quiet];
    const jvm = [
      '-Xms64m',
      '-Xmx512m',
      '-XX:+UseSerialGC',
      ...logging,
      '-cp',
      `${lib}/*`,
      'org.apache.zookeeper.server.ZooKeeperServerMain',
      cfg,
    ];
    o.log(`starting ZooKeeper ${ZOOKEEPER_RELEASE} on ${host}:${o.port}`);
    spawnDetached('java', jvm, { cwd: o.home, logFile: join(o.home, 'zookeeper.log'), pidFile });
  }

  return {
    address: `${host}:${o.port}`,
    answers,
    start,
    async ready() {
      await waitFor(answers, {
        timeoutMs: 60000,
        intervalMs: 200,
        what: `ZooKeeper at ${host}:${o.port} (log: ${join(o.home, 'zookeeper.log')})`,
      });
    },
    async down() {
      if (!livePid(pidFile)) return (await answers()) ? 'not-ours' : 'not-running';
      await stopPid(pidFile, 15000);
      return 'stopped';
    },
  };
}
