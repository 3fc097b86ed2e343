// A private MariaDB with the binlog on, for the peer rows that read it (Debezium): its own data folder
// under the stack dir (<stack>/bench/mariadb-binlog) and its own port, initialised with
// mariadb-install-db and run as `mariadbd --no-defaults` by the current user, so the machine's server
// (MYSQL_PORT, its my.cnf, its data) is never touched. ROW binlog with FULL images and a server id, as
// a CDC reader needs. The database gets our real MySQL migrations (the very same outbox table), a
// writer user for the bench and a reader user with exactly the grants a binlog reader needs.
// stop() ends the server by its pid file and deletes the folder: nothing of it outlives the row.
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Knex } from 'knex';
import { mysqlMigrations } from '../../migrations/mysql';
import type { Settings } from '../../src/config/settings';
import { ListMigrationSource } from '../../src/infra/migrate';
import { mysqlKnex } from '../../src/infra/mysql/fromMysql';
import { waitFor } from '../../src/shared/lifecycle';
import { alive, livePid, readPid, stopPid } from '../../src/devstack/pidFile';
import { installedBinary, run, spawnDetached, tcpAnswers } from '../../src/devstack/system';
import { repoRoot } from './processes';

export interface BinlogMariadb {
  host: string;
  port: number;
  database: string;
  /** The binlog reader's login: REPLICATION SLAVE, REPLICATION CLIENT, SELECT. */
  reader: { user: string; password: string };
  /** A knex on the database as the writer (UTC, READ COMMITTED, like every Tidemark pool). */
  db: Knex;
  pid: number;
  dir: string;
  stop(): Promise<void>;
}

function binary(names: string[]): string {
  const p = installedBinary(names);
  if (!p) throw new Error(`none of ${names.join(', ')} is installed (apt-get install mariadb-server)`);
  return p;
}

export async function startBinlogMariadb(o: {
  settings: Settings;
  port?: number;
  database: string;
  /** A version string the server reports instead of its own (`version` at startup), for clients that decide by it. */
  reportVersion?: string;
  log: (l: string) => void;
}): Promise<BinlogMariadb> {
  if (!/^[a-z0-9_]+$/.test(o.database)) throw new Error(`database name ${o.database}: letters, digits and _ only`);
  const port = o.port ?? 3316;
  const host = '127.0.0.1';
  const dir = join(resolve(repoRoot, o.settings.stackDir), 'bench', 'mariadb-binlog');
  const pidFile = join(dir, 'mariadbd.pid');
  const socket = join(dir, 'mariadbd.sock');
  if (livePid(pidFile)) await stopPid(pidFile, 30000); // a run that died left its server behind
  if (await tcpAnswers(host, port)) throw new Error(`port ${port} is taken by a server this bench did not start`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'binlog'), { recursive: true });

  const user = process.getuid?.() === 0 ? ['--user=root'] : [];
  o.log(`initialising a private MariaDB (binlog on) in ${dir}`);
  run(binary(['mariadb-install-db', 'mysql_install_db']), [
    '--no-defaults',
    `--datadir=${join(dir, 'data')}`,
    '--auth-root-authentication-method=socket',
    '--skip-test-db',
    ...user,
  ]);
  spawnDetached(
    binary(['mariadbd', 'mysqld']),
    [
      '--no-defaults',
      ...user,
      `--datadir=${join(dir, 'data')}`,
      `--port=${port}`,
      `--bind-address=${host}`,
      `--socket=${socket}`,
      `--pid-file=${join(dir, 'server.pid')}`,
      `--log-error=${join(dir, 'error.log')}`,
      `--log-bin=${join(dir, 'binlog', 'mariadb-bin')}`,
      '--binlog-format=ROW',
      '--binlog-row-image=FULL',
      `--server-id=${port}`,
      '--skip-name-resolve',
      '--character-set-server=utf8mb4',
      '--collation-server=utf8mb4_bin',
      '--innodb-buffer-pool-size=256M',
      ...(o.reportVersion ? [`--version=${o.reportVersion}`] : []),
    ],
    { logFile: join(dir, 'stdout.log'), pidFile },
  );
  const pid = readPid(pidFile)!;
  await waitFor(
    () => {
      if (!alive(pid)) throw new Error(`the private MariaDB exited; see ${join(dir, 'error.log')}`);
      return tcpAnswers(host, port);
    },
    { timeoutMs: 60000, intervalMs: 200, what: `the private MariaDB on ${port}` },
  );

  // Root logs in over the socket (unix_socket authentication of the user running it): no password.
  const writer = { user: 'tidemark_bench', password: 'tidemark_bench' };
  const reader = { user: 'debezium', password: 'debezium' };
  const sql = [
    `CREATE DATABASE ${o.database} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
    `CREATE USER '${writer.user}'@'%' IDENTIFIED BY '${writer.password}'`,
    `GRANT ALL PRIVILEGES ON ${o.database}.* TO '${writer.user}'@'%'`,
    `CREATE USER '${reader.user}'@'%' IDENTIFIED BY '${reader.password}'`,
    `GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO '${reader.user}'@'%'`,
  ];
  run(binary(['mariadb', 'mysql']), ['--no-defaults', `--socket=${socket}`, '-u', 'root', '-e', sql.join('; ')]);

  const db = mysqlKnex(
    { ...o.settings, mysqlHost: host, mysqlPort: port, mysqlUser: writer.user, mysqlPassword: writer.password },
    o.database,
    4,
  );
  await db.migrate.latest({ migrationSource: new ListMigrationSource(mysqlMigrations) });
  await db.raw('INSERT INTO shard_identity (singleton, shard_index, shard_database) VALUES (1, 0, ?)', [o.database]);
  return {
    host,
    port,
    database: o.database,
    reader,
    db,
    pid,
    dir,
    async stop() {
      await db.destroy().catch(() => undefined);
      await stopPid(pidFile, 60000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
