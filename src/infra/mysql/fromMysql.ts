// MySQL/MariaDB adapter: one knex pool per fitness shard, on the shard's own server (shardTargets.ts).
// DECIMAL columns come back as strings so results stay exact decimals end to end; every connection
// runs in UTC and at READ COMMITTED.
import knex, { type Knex } from 'knex';
import type { MysqlConnectionSettings, ShardTargetSettings } from '../../config/slices';
import { knexLog } from '../sql/knexLog';
import { mysqlSsl } from '../tls';
import { onServer, shardTargets } from './shardTargets';

export interface MysqlShard {
  index: number;
  database: string;
  db: Knex;
}

export interface MysqlShards {
  shards: MysqlShard[];
  shard(index: number): MysqlShard;
  destroy(): Promise<void>;
}

export type { MysqlConnectionSettings };

export function mysqlKnex(s: MysqlConnectionSettings, database?: string, poolMax = s.dbPoolMax): Knex {
  return knex({
    client: 'mysql2',
    log: knexLog,
    // An error's message carries the SQL with placeholders, never the bound values (results, ids).
    compileSqlOnError: false,
    connection: {
      host: s.mysqlHost,
      port: s.mysqlPort,
      user: s.mysqlUser,
      password: s.mysqlPassword,
      database,
      timezone: 'Z',
      dateStrings: false,
      supportBigNumbers: true,
      bigNumberStrings: false,
      decimalNumbers: false,
      connectTimeout: 5000,
      ssl: mysqlSsl(s),
    },
    pool: {
      min: 0,
      max: poolMax,
      // Every pooled connection works in UTC so NOW(3) and stored DATETIMEs agree across processes,
      // and at READ COMMITTED, the isolation every business transaction and relay claim here is
      // designed for (no gap locks between writers and relays; PostgreSQL's default too). Set once
      // per connection, it saves each write a `SET TRANSACTION` round trip; a transaction that
      // needs another level (reconciliation's REPEATABLE READ snapshot) asks for it explicitly.
      afterCreate: (
        conn: { query: (sql: string, cb: (err: Error | null) => void) => void },
        done: (err: Error | null, c: unknown) => void,
      ) =>
        conn.query("SET time_zone = '+00:00'", (err) =>
          err ? done(err, conn) : conn.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', (err2) => done(err2, conn)),
        ),
    },
    acquireConnectionTimeout: 10000,
  });
}

/** A knex on one shard's database, on its server (tests and tools that need a connection of their own). */
export function shardKnex(s: MysqlConnectionSettings & ShardTargetSettings, index: number, poolMax = s.dbPoolMax): Knex {
  const t = shardTargets(s)[index];
  if (!t) throw new RangeError(`no fitness shard ${index} (configured: ${s.fitnessShardDatabases.length})`);
  return mysqlKnex(onServer(s, t), t.database, poolMax);
}

export function fromMysqlShards(s: MysqlConnectionSettings & ShardTargetSettings): MysqlShards {
  const shards = shardTargets(s).map((t) => ({ index: t.index, database: t.database, db: mysqlKnex(onServer(s, t), t.database) }));
  return {
    shards,
    shard(index) {
      const sh = shards[index];
      if (!sh) throw new RangeError(`no fitness shard ${index} (configured: ${shards.length})`);
      return sh;
    },
    destroy: async () => {
      await Promise.all(shards.map((sh) => sh.db.destroy()));
    },
  };
}
