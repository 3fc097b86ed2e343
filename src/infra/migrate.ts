// Runs every engine's migrations idempotently: on `npm start`, in test setup, and from `npm run migrate`.
// MySQL and PostgreSQL use knex's migrator (it locks, so concurrent starters are safe). ClickHouse has
// no well-kept migration library that runs on 18.16, so a small runner keeps applied versions in
// `<db>.schema_migrations`; each statement is idempotent (IF NOT EXISTS) so a race between two
// starters is harmless.
import type { Knex } from 'knex';
import type { ClickHouseClient } from '@clickhouse/client';
import { mysqlMigrations } from '../../migrations/mysql';
import { postgresMigrations } from '../../migrations/postgres';
import { clickhouseMigrations } from '../../migrations/clickhouse';
import type { ClickHouseMigration, KnexMigration } from '../../migrations/types';
import { ident, str, uint } from './clickhouse/literal';
import type { MysqlShards } from './mysql/fromMysql';

class ListMigrationSource implements Knex.MigrationSource<KnexMigration> {
  constructor(private readonly list: KnexMigration[]) {}
  getMigrations() {
    return Promise.resolve(this.list);
  }
  getMigrationName(m: KnexMigration) {
    return m.name;
  }
  getMigration(m: KnexMigration) {
    return Promise.resolve({ up: (db: Knex) => m.up(db), down: (db: Knex) => m.down(db) });
  }
}

export interface MigrationReport {
  engine: string;
  target: string;
  applied: string[];
}

async function latest(db: Knex, list: KnexMigration[], engine: string, target: string): Promise<MigrationReport> {
  const [, applied] = (await db.migrate.latest({ migrationSource: new ListMigrationSource(list) })) as [number, string[]];
  return { engine, target, applied };
}

/** Migrates every shard and checks each database is the shard the configuration says it is. */
export async function migrateMysqlShards(shards: MysqlShards, list = mysqlMigrations): Promise<MigrationReport[]> {
  const reports: MigrationReport[] = [];
  for (const sh of shards.shards) {
    reports.push(await latest(sh.db, list, 'mysql', sh.database));
    await sh.db.raw('INSERT IGNORE INTO shard_identity (singleton, shard_index, shard_database) VALUES (1, ?, ?)', [sh.index, sh.database]);
    const row = await sh.db('shard_identity').first('shard_index');
    if (Number(row.shard_index) !== sh.index)
      throw new Error(`database ${sh.database} is fitness shard ${row.shard_index} but FITNESS_SHARD_DATABASES lists it as shard ${sh.index}; restore the original order`);
  }
  return reports;
}

export async function migratePostgres(db: Knex, database: string, list = postgresMigrations): Promise<MigrationReport> {
  const report = await latest(db, list, 'postgres', database);
  await db.raw("INSERT INTO store_identity (singleton, store) VALUES (1, 'orders') ON CONFLICT (singleton) DO NOTHING");
  return report;
}

export async function migrateClickHouse(ch: ClickHouseClient, database: string, list: ClickHouseMigration[] = clickhouseMigrations): Promise<MigrationReport> {
  const db = ident(database);
  await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
  await ch.command({
    query: `CREATE TABLE IF NOT EXISTS ${db}.schema_migrations (version UInt32, name String, applied_at DateTime) ENGINE = MergeTree ORDER BY version`,
  });
  const rs = await ch.query({ query: `SELECT DISTINCT version FROM ${db}.schema_migrations`, format: 'JSONEachRow' });
  const done = new Set((await rs.json<{ version: number | string }>()).map((r) => Number(r.version)));
  const applied: string[] = [];
  for (const m of [...list].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    for (const statement of m.statements(db)) await ch.command({ query: statement });
    await ch.command({
      query: `INSERT INTO ${db}.schema_migrations (version, name, applied_at) VALUES (${uint(m.version)}, ${str(m.name)}, now())`,
    });
    applied.push(`${m.version}_${m.name}`);
  }
  return { engine: 'clickhouse', target: database, applied };
}
