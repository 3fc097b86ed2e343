// ClickHouse: Debian's clickhouse-server (18.16) when the binary is absent, started with our own
// config and data folder under <stack>/clickhouse, listening on the CLICKHOUSE_URL port only. With
// CLICKHOUSE_ENGINE=embedded there is no server: `up` opens the embedded data directory in this process
// (chdb, ClickHouse 26) and creates the database; nothing runs that `down` could stop.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedClickHousePath } from '../config/paths';
import { LOCAL_CLICKHOUSE_READER } from '../config/settings';
import { fromClickHouse } from '../infra/clickhouse/fromClickHouse';
import { ident } from '../infra/clickhouse/literal';
import { waitFor } from '../shared/lifecycle';
import type { StackContext, StackService } from './service';
import { livePid, stopPid } from './pidFile';
import { aptInstall, spawnDetached, which } from './system';

export function clickhouseService(ctx: StackContext): StackService {
  const s = ctx.settings;
  const url = new URL(s.clickhouseUrl);
  const host = url.hostname;
  const httpPort = Number(url.port || 8123);
  const isLocal = ['127.0.0.1', 'localhost'].includes(host);
  const home = join(ctx.dir, 'clickhouse');
  const pidFile = join(home, 'clickhouse.pid');

  async function answers(): Promise<boolean> {
    let ch: ReturnType<typeof fromClickHouse>;
    try {
      ch = fromClickHouse(s, { database: null, requestTimeoutMs: 2000 });
    } catch {
      return false; // the embedded data directory is held by another process
    }
    try {
      const rs = await ch.query({ query: 'SELECT 1 AS ok', format: 'JSONEachRow' });
      const rows = await rs.json<{ ok: number }>();
      return Number(rows[0]?.ok) === 1;
    } catch {
      return false;
    } finally {
      await ch.close();
    }
  }

  /**
   * A server that answers may still be unable to write: one left running after its data folder was
   * deleted (a removed checkout) answers SELECT 1 but fails every CREATE with "File not found". Fail
   * here with what to do, instead of in every test or migration that creates a database.
   */
  async function provesWritable(ch: ReturnType<typeof fromClickHouse>): Promise<void> {
    const probe = ident(`${s.clickhouseDatabase}_stack_probe`);
    try {
      await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${probe}` });
      await ch.command({ query: `DROP DATABASE IF EXISTS ${probe}` });
    } catch (err) {
      const why = err instanceof Error ? err.message.replace(/\s+/g, ' ').trim().slice(0, 200) : 'unknown error';
      throw new Error(
        `ClickHouse at ${s.clickhouseUrl} answers but cannot create a database (${why}). Its data folder may have been removed while it ran: ` +
          'stop that server (npm run stack -- down in the checkout that started it, or end the clickhouse-server process) and run this again.',
      );
    }
  }

  if (s.clickhouseEngine === 'embedded') {
    return {
      name: 'clickhouse',
      address: `embedded:${embeddedClickHousePath(s)}`,
      check: answers,
      async up() {
        mkdirSync(embeddedClickHousePath(s), { recursive: true });
        const ch = fromClickHouse(s, { database: null });
        try {
          await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${ident(s.clickhouseDatabase)}` });
        } finally {
          await ch.close();
        }
      },
      down: async () => 'not-running',
    };
  }

  return {
    name: 'clickhouse',
    address: `${host}:${httpPort}`,
    check: answers,
    async up() {
      if (!(await answers())) {
        if (!isLocal) throw new Error(`ClickHouse at ${s.clickhouseUrl} does not answer and is not local; start it or fix CLICKHOUSE_URL`);
        if (!livePid(pidFile)) {
          const listenHost = host === 'localhost' ? '127.0.0.1' : host;
          spawnClickHouseServer({ root: ctx.root, home, httpPort, listenHost, pidFile, log: ctx.log });
        }
        await waitFor(answers, { timeoutMs: 60000, intervalMs: 300, what: `ClickHouse at ${s.clickhouseUrl} (log: ${join(home, 'log')})` });
      }
      const ch = fromClickHouse(s, { database: null });
      try {
        await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${ident(s.clickhouseDatabase)}` });
        await provesWritable(ch);
      } finally {
        await ch.close();
      }
    },
    async down() {
      if (!livePid(pidFile)) return (await answers()) ? 'not-ours' : 'not-running';
      await stopPid(pidFile, 30000);
      return 'stopped';
    },
  };
}

/** The placeholders of devstack/clickhouse/users.xml: the local read-only user. */
export const USERS_XML_VARS = { READER_USER: LOCAL_CLICKHOUSE_READER.user, READER_PASSWORD: LOCAL_CLICKHOUSE_READER.password } as const;

/** Fills the ${NAME} placeholders of a devstack template; a name without a value becomes empty. */
export function renderTemplate(file: string, vars: Record<string, string>): string {
  return readFileSync(file, 'utf8').replace(/\$\{([A-Z0-9_]+)\}/g, (_, k: string) => vars[k] ?? '');
}

/**
 * Starts a detached clickhouse-server (installing Debian's package when absent) with our own config and
 * data in `home`: devstack/clickhouse/{config,users}.xml rendered there, native port = HTTP port + 877.
 * `configD` files go to home/config.d/, which the server merges over config.xml (the local cluster adds
 * its remote_servers, zookeeper and macros that way, so every server shares one base config).
 */
export function spawnClickHouseServer(o: {
  root: string;
  home: string;
  httpPort: number;
  listenHost: string;
  pidFile: string;
  log: (l: string) => void;
  name?: string;
  configD?: Record<string, string>;
}): number {
  if (!which('clickhouse-server') && !existsSync('/usr/bin/clickhouse')) aptInstall(['clickhouse-server', 'clickhouse-client'], o.log);
  for (const d of ['data', 'tmp', 'user_files', 'format_schemas', 'log', 'config.d']) mkdirSync(join(o.home, d), { recursive: true });
  const vars = {
    DATA_DIR: o.home,
    HTTP_PORT: String(o.httpPort),
    TCP_PORT: String(o.httpPort + 877),
    LISTEN_HOST: o.listenHost,
    ...USERS_XML_VARS,
  };
  const tpl = join(o.root, 'devstack', 'clickhouse');
  writeFileSync(join(o.home, 'config.xml'), renderTemplate(join(tpl, 'config.xml'), vars));
  writeFileSync(join(o.home, 'users.xml'), renderTemplate(join(tpl, 'users.xml'), vars));
  for (const [file, text] of Object.entries(o.configD ?? {})) writeFileSync(join(o.home, 'config.d', file), text);
  const bin = which('clickhouse-server') ?? '/usr/bin/clickhouse';
  const config = `--config-file=${join(o.home, 'config.xml')}`;
  o.log(`starting ClickHouse${o.name ? ` ${o.name}` : ''}`);
  return spawnDetached(bin, bin.endsWith('clickhouse-server') ? [config] : ['server', config], {
    cwd: o.home,
    logFile: join(o.home, 'log', 'stdout.log'),
    pidFile: o.pidFile,
  });
}
