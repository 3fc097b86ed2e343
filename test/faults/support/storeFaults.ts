// Relational-store faults without touching the shared servers: the suite kills only the server-side
// connections of its OWN databases (MySQL `KILL CONNECTION` for processlist rows whose db is one of its
// shard databases, PostgreSQL `pg_terminate_backend` for backends of its orders database). The role
// processes see exactly what a server restart does to them: in-flight statements fail, pooled
// connections are dead, new ones must be opened. The killer's own connections have no default database
// (MySQL, one per shard server) or sit in the `postgres` database, so they never kill themselves.
// The test process's own pools sit in the same databases and die too, but they do not count: a storm
// counts as injected only if it killed connections of the Tidemark role processes (told apart by the
// client port, processSockets.ts).
import type { Settings } from '../../../src/config/settings';
import { mysqlKnex } from '../../../src/infra/mysql/fromMysql';
import { onServer, shardServers } from '../../../src/infra/mysql/shardTargets';
import { postgresKnex } from '../../../src/infra/postgres/fromPostgres';
import { sleep } from '../../../src/shared/lifecycle';
import { requireInjected } from './faultActions';
import { clientPort, localPortsOf } from './processSockets';

export interface Killed {
  /** Connections killed, whoever held them. */
  killed: number;
  /** Of those, the ones held by the role processes. */
  ofRoles: number;
}

export interface ConnectionKiller {
  /** Kills every current connection of the suite's shard databases. */
  killMysql(): Promise<Killed>;
  /** Terminates every backend of the suite's orders database. */
  killPostgres(): Promise<Killed>;
  /**
   * Keeps killing for `ms` (every `everyMs`), so connections opened meanwhile die too; throws
   * FaultNotInjectedError if no connection of a role process died.
   */
  storm(store: 'mysql' | 'postgres', ms: number, everyMs?: number): Promise<Killed>;
  close(): Promise<void>;
}

/** `rolePids`: the PIDs of the Tidemark role processes whose connections a storm must reach. */
export function connectionKiller(s: Settings, rolePids: () => readonly number[]): ConnectionKiller {
  const servers = shardServers(s).map((server) => ({
    databases: server.databases,
    my: mysqlKnex(onServer(s, server.login), undefined, 1),
  }));
  const pg = postgresKnex(s, 'postgres', 1);
  const self = {
    async killMysql() {
      const out = { killed: 0, ofRoles: 0 };
      for (const { databases, my } of servers) {
        const [rows] = (await my.raw(
          `SELECT id, host FROM information_schema.processlist WHERE db IN (${databases.map(() => '?').join(',')}) AND id <> CONNECTION_ID()`,
          databases,
        )) as [{ id: number; host: string | null }[]];
        // Read after the listing and before the kills, while the sockets are still open.
        const roles = localPortsOf(rolePids());
        for (const r of rows) {
          const port = clientPort(r.host);
          // A connection may end on its own between the SELECT and the KILL (ER_NO_SUCH_THREAD).
          await my.raw('KILL CONNECTION ?', [Number(r.id)]).then(
            () => {
              out.killed++;
              if (port !== undefined && roles.has(port)) out.ofRoles++;
            },
            () => undefined,
          );
        }
      }
      return out;
    },
    async killPostgres() {
      const r = (await pg.raw('SELECT pid, client_port AS port FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()', [
        s.pgDatabase,
      ])) as { rows: { pid: number; port: number | null }[] };
      const roles = localPortsOf(rolePids());
      const out = { killed: 0, ofRoles: 0 };
      for (const b of r.rows) {
        const t = (await pg.raw('SELECT pg_terminate_backend(?) AS ok', [b.pid])) as { rows: { ok: boolean }[] };
        if (!t.rows[0]?.ok) continue;
        out.killed++;
        if (b.port !== null && roles.has(b.port)) out.ofRoles++;
      }
      return out;
    },
    async storm(store: 'mysql' | 'postgres', ms: number, everyMs = 150) {
      const until = Date.now() + ms;
      const total = { killed: 0, ofRoles: 0 };
      while (Date.now() < until) {
        const k = await (store === 'mysql' ? self.killMysql() : self.killPostgres());
        total.killed += k.killed;
        total.ofRoles += k.ofRoles;
        await sleep(everyMs);
      }
      // A storm that killed only the test process's own pooled connections injected nothing into the
      // product: the cycle must fail, not count.
      requireInjected(
        total.ofRoles > 0,
        `${store}-connections-killed`,
        `connections of the role processes to the suite's ${store} databases killed`,
        {
          ...total,
          ms,
        },
      );
      return total;
    },
    async close() {
      await Promise.allSettled([...servers.map(({ my }) => my.destroy()), pg.destroy()]);
    },
  };
  return self;
}
