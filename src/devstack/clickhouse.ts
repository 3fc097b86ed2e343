// ClickHouse: Debian's clickhouse-server (18.16) when the binary is absent, started with our own
// config and data folder under <stack>/clickhouse, listening on the CLICKHOUSE_URL port only.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromClickHouse } from '../infra/clickhouse/fromClickHouse';
import { ident } from '../infra/clickhouse/literal';
import { waitFor } from '../shared/lifecycle';
import type { StackContext, StackService } from './service';
import { aptInstall, alive, readPid, spawnDetached, stopPid, which } from './system';

export function clickhouseService(ctx: StackContext): StackService {
  const s = ctx.settings;
  const url = new URL(s.clickhouseUrl);
  const host = url.hostname;
  const httpPort = Number(url.port || 8123);
  const isLocal = ['127.0.0.1', 'localhost'].includes(host);
  const home = join(ctx.dir, 'clickhouse');
  const pidFile = join(home, 'clickhouse.pid');

  async function answers(): Promise<boolean> {
    const ch = fromClickHouse(s, { database: null, requestTimeoutMs: 2000 });
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

  function render(template: string, vars: Record<string, string>): string {
    return template.replace(/\$\{([A-Z_]+)\}/g, (_, k: string) => vars[k] ?? '');
  }

  return {
    name: 'clickhouse',
    address: `${host}:${httpPort}`,
    check: answers,
    async up() {
      if (!(await answers())) {
        if (!isLocal) throw new Error(`ClickHouse at ${s.clickhouseUrl} does not answer and is not local; start it or fix CLICKHOUSE_URL`);
        const pid = readPid(pidFile);
        if (!pid || !alive(pid)) {
          if (!which('clickhouse-server') && !existsSync('/usr/bin/clickhouse')) aptInstall(['clickhouse-server', 'clickhouse-client'], ctx.log);
          for (const d of ['data', 'tmp', 'user_files', 'format_schemas', 'log']) mkdirSync(join(home, d), { recursive: true });
          const vars = { DATA_DIR: home, HTTP_PORT: String(httpPort), TCP_PORT: String(httpPort + 877), LISTEN_HOST: host === 'localhost' ? '127.0.0.1' : host };
          const tpl = join(ctx.root, 'devstack', 'clickhouse');
          writeFileSync(join(home, 'config.xml'), render(readFileSync(join(tpl, 'config.xml'), 'utf8'), vars));
          writeFileSync(join(home, 'users.xml'), render(readFileSync(join(tpl, 'users.xml'), 'utf8'), vars));
          const bin = which('clickhouse-server') ?? '/usr/bin/clickhouse';
          const args = bin.endsWith('clickhouse-server') ? [`--config-file=${join(home, 'config.xml')}`] : ['server', `--config-file=${join(home, 'config.xml')}`];
          ctx.log('starting ClickHouse');
          spawnDetached(bin, args, { cwd: home, logFile: join(home, 'log', 'stdout.log'), pidFile });
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
      const pid = readPid(pidFile);
      if (!pid || !alive(pid)) return (await answers()) ? 'not-ours' : 'not-running';
      await stopPid(pidFile, 30000);
      return 'stopped';
    },
  };
}
