// Runs every engine's migrations idempotently: on `npm start`, in test setup, and from `npm run migrate`.
// MySQL and PostgreSQL use knex's migrator (it locks, so concurrent starters are safe). ClickHouse has
// no well-kept migration library that runs on 18.16, so a small runner keeps applied versions in
// `<db>.schema_migrations`; each statement is idempotent (IF NOT EXISTS) so a race between two
// starters is harmless. Every migration has a down: knex's migrate.down() for MySQL and PostgreSQL
// (over migrationSource()), rollbackClickHouse() for ClickHouse (src/infra/migrationsDownUp.int.spec.ts).
import type { Knex } from 'knex';
import type { ClickHouseClient } from '@clickhouse/client';
import { mysqlMigrations } from '../../migrations/mysql';
import { postgresMigrations, postgresRenamedMigrations } from '../../migrations/postgres';
import { clickhouseMigrations } from '../../migrations/clickhouse';
import type { ClickHouseMigration, ClickHouseTables, KnexMigration } from '../../migrations/types';
import {
  createDatabaseStatement,
  alterColumnStatements,
  createTableStatements,
  dropTableStatements,
  type ClickHouseLayout,
} from './clickhouse/layout';
import { ident, str, uint } from './clickhouse/literal';
import type { MysqlShards } from './mysql/fromMysql';

export class ListMigrationSource implements Knex.MigrationSource<KnexMigration> {
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

/**
 * Applies knex's record of a migration's old name to its new one (a renumbered migration must not run
 * again on a database that applied it under its old name). One UPDATE per renamed migration, in the
 * same lock-free way knex itself writes the table; a no-op where the table or the old name is absent.
 */
export async function renameAppliedMigrations(db: Knex, renamed: Readonly<Record<string, string>>): Promise<void> {
  if (Object.keys(renamed).length === 0 || !(await db.schema.hasTable('knex_migrations'))) return;
  for (const [from, to] of Object.entries(renamed)) await db('knex_migrations').where({ name: from }).update({ name: to });
}

async function latest(
  db: Knex,
  list: KnexMigration[],
  engine: string,
  target: string,
  renamed: Readonly<Record<string, string>> = {},
): Promise<MigrationReport> {
  await renameAppliedMigrations(db, renamed);
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
      throw new Error(
        `database ${sh.database} is fitness shard ${row.shard_index} but FITNESS_SHARDS (or FITNESS_SHARD_DATABASES) lists it as shard ${sh.index}; ` +
          'restore the original order',
      );
  }
  return reports;
}

export async function migratePostgres(db: Knex, database: string, list = postgresMigrations): Promise<MigrationReport> {
  const report = await latest(db, list, 'postgres', database, postgresRenamedMigrations);
  await db.raw("INSERT INTO store_identity (singleton, store) VALUES (1, 'orders') ON CONFLICT (singleton) DO NOTHING");
  return report;
}

function clickhouseTables(layout: ClickHouseLayout, database: string): ClickHouseTables {
  return {
    db: ident(database),
    create: (spec) => createTableStatements(layout, database, spec),
    drop: (table) => dropTableStatements(layout, database, table),
    alter: (table, change, shardingKey) => alterColumnStatements(layout, database, table, change, shardingKey),
  };
}

/**
 * Applies the ClickHouse migrations not yet applied. On a cluster the database and every table are
 * created ON CLUSTER; the bookkeeping table schema_migrations stays on the server the migration
 * talks to (CLICKHOUSE_URL), like a lock file: every process of a deployment migrates through it.
 */
export async function migrateClickHouse(
  ch: ClickHouseClient,
  database: string,
  layout: ClickHouseLayout,
  list: ClickHouseMigration[] = clickhouseMigrations,
): Promise<MigrationReport> {
  const db = ident(database);
  await ch.command({ query: createDatabaseStatement(layout, database) });
  await ch.command({
    query: `CREATE TABLE IF NOT EXISTS ${db}.schema_migrations (version UInt32, name String, applied_at DateTime) ENGINE = MergeTree ORDER BY version`,
  });
  const rs = await ch.query({ query: `SELECT DISTINCT version FROM ${db}.schema_migrations`, format: 'JSONEachRow' });
  const done = new Set((await rs.json<{ version: number | string }>()).map((r) => Number(r.version)));
  const applied: string[] = [];
  for (const m of [...list].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    for (const statement of m.statements(clickhouseTables(layout, database))) await ch.command({ query: statement });
    await ch.command({
      query: `INSERT INTO ${db}.schema_migrations (version, name, applied_at) VALUES (${uint(m.version)}, ${str(m.name)}, now())`,
    });
    applied.push(`${m.version}_${m.name}`);
  }
  return { engine: 'clickhouse', target: database, applied };
}

/**
 * Undoes the newest applied ClickHouse migration: its down statements, then its schema_migrations row
 * (ALTER ... DELETE is a mutation, applied in the background on 18.16, so this waits until the row is
 * gone). Returns the name of the migration undone, or undefined when none is applied.
 */
export async function rollbackClickHouse(
  ch: ClickHouseClient,
  database: string,
  layout: ClickHouseLayout,
  list: ClickHouseMigration[] = clickhouseMigrations,
): Promise<string | undefined> {
  const db = ident(database);
  const rs = await ch.query({ query: `SELECT max(version) AS v, count() AS n FROM ${db}.schema_migrations`, format: 'JSONEachRow' });
  const [top] = await rs.json<{ v: number | string; n: number | string }>();
  if (!top || Number(top.n) === 0) return undefined;
  const m = list.find((x) => x.version === Number(top.v));
  if (!m) throw new Error(`ClickHouse migration ${top.v} is applied in ${database} but not listed; cannot undo it`);
  for (const statement of m.down(clickhouseTables(layout, database))) await ch.command({ query: statement });
  await ch.command({ query: `ALTER TABLE ${db}.schema_migrations DELETE WHERE version = ${uint(m.version)}` });
  for (const deadline = Date.now() + 30000; ;) {
    const left = await ch.query({
      query: `SELECT count() AS n FROM ${db}.schema_migrations WHERE version = ${uint(m.version)}`,
      format: 'JSONEachRow',
    });
    if (Number((await left.json<{ n: number | string }>())[0]!.n) === 0) return `${m.version}_${m.name}`;
    if (Date.now() > deadline)
      throw new Error(`ClickHouse did not remove migration ${m.version} from ${database}.schema_migrations within 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
