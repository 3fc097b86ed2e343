// Relational-store faults without touching the shared servers: the suite kills only the server-side
// connections of its OWN databases (MySQL `KILL CONNECTION` for processlist rows whose db is one of its
// shard databases, PostgreSQL `pg_terminate_backend` for backends of its orders database). The role
// processes see exactly what a server restart does to them: in-flight statements fail, pooled
// connections are dead, new ones must be opened. The killer's own connections have no default database
// (MySQL, one per shard server) or sit in the `postgres` database, so they never kill themselves.
import type { Settings } from '../../../src/config/settings';
import { mysqlKnex } from '../../../src/infra/mysql/fromMysql';
import { onServer, shardServers } from '../../../src/infra/mysql/shardTargets';
import { postgresKnex } from '../../../src/infra/postgres/fromPostgres';
import { sleep } from '../../../src/shared/lifecycle';
import { requireInjected } from './faultActions';

export interface ConnectionKiller {
  /** Kills every current connection of the suite's shard databases; returns how many. */
  killMysql(): Promise<number>;
  /** Terminates every backend of the suite's orders database; returns how many. */
  killPostgres(): Promise<number>;
  /** Keeps killing for `ms` (every `everyMs`), so connections opened meanwhile die too; throws FaultNotInjectedError if none died. */
  storm(store: 'mysql' | 'postgres', ms: number, everyMs?: number): Promise<number>;
  close(): Promise<void>;
}

export function connectionKiller(s: Settings): ConnectionKiller {
  const servers = shardServers(s).map((server) => ({
    databases: server.databases,
    my: mysqlKnex(onServer(s, server.login), undefined, 1),
  }));
  const pg = postgresKnex(s, 'postgres', 1);
  const self = {
    async killMysql() {
      let killed = 0;
      for (const { databases, my } of servers) {
        const [rows] = (await my.raw(
          `SELECT id FROM information_schema.processlist WHERE db IN (${databases.map(() => '?').join(',')}) AND id <> CONNECTION_ID()`,
          databases,
        )) as [{ id: number }[]];
        for (const r of rows) {
          // A connection may end on its own between the SELECT and the KILL (ER_NO_SUCH_THREAD).
          await my.raw('KILL CONNECTION ?', [Number(r.id)]).then(
            () => killed++,
            () => undefined,
          );
        }
      }
      return killed;
    },
    async killPostgres() {
      const r = (await pg.raw(
        'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()',
        [s.pgDatabase],
      )) as {
        rows: { n: string }[];
      };
      return Number(r.rows[0]?.n ?? 0);
    },
    async storm(store: 'mysql' | 'postgres', ms: number, everyMs = 150) {
      const until = Date.now() + ms;
      let total = 0;
      while (Date.now() < until) {
        total += await (store === 'mysql' ? self.killMysql() : self.killPostgres());
        await sleep(everyMs);
      }
      // A storm that found no connection to kill injected nothing: the cycle must fail, not count.
      requireInjected(total > 0, `${store}-connections-killed`, `connections of the suite's ${store} databases killed`, {
        killed: total,
        ms,
      });
      return total;
    },
    async close() {
      await Promise.allSettled([...servers.map(({ my }) => my.destroy()), pg.destroy()]);
    },
  };
  return self;
}
