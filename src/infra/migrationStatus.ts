// Which migrations each engine has applied and which are pending, read without changing anything
// (the `migrations` operator query, `tidemark migrate status`). MySQL and PostgreSQL keep knex's
// record (knex_migrations); ClickHouse keeps <db>.schema_migrations (src/infra/migrate.ts).
import type { ClickHouseMigration, KnexMigration } from '../../migrations/types';
import type { Knex } from 'knex';
import type { MigrationStatusSettings } from '../config/slices';
import { clickhouseMigrations } from '../../migrations/clickhouse';
import { mysqlMigrations } from '../../migrations/mysql';
import { postgresMigrations, postgresRenamedMigrations } from '../../migrations/postgres';
import type { ClickHouseClient } from './clickhouse/fromClickHouse';
import { ident } from './clickhouse/literal';
import type { MysqlShards } from './mysql/fromMysql';

/** The connections whose migrations are read (the composition root passes its resources). */
export interface MigrationTargets {
  settings: MigrationStatusSettings;
  mysql: MysqlShards;
  pg: Knex;
  clickhouse: ClickHouseClient;
}

export interface MigrationState {
  engine: 'mysql' | 'postgres' | 'clickhouse';
  /** The database (a MySQL shard, the orders database, the projection database). */
  target: string;
  applied: string[];
  pending: string[];
}

function split(engine: MigrationState['engine'], target: string, all: string[], done: Set<string>): MigrationState {
  return { engine, target, applied: all.filter((n) => done.has(n)), pending: all.filter((n) => !done.has(n)) };
}

/** Names knex recorded, under their current names (a renumbered migration counts as applied). */
async function knexApplied(db: Knex, renamed: Readonly<Record<string, string>> = {}): Promise<Set<string>> {
  if (!(await db.schema.hasTable('knex_migrations'))) return new Set();
  const rows = (await db('knex_migrations').select('name')) as { name: string }[];
  return new Set(rows.map((r) => renamed[r.name] ?? r.name));
}

async function clickhouseApplied(r: MigrationTargets): Promise<Set<string>> {
  const db = ident(r.settings.clickhouseDatabase);
  const exists = await r.clickhouse.query({ query: `EXISTS TABLE ${db}.schema_migrations`, format: 'JSONEachRow' });
  const [row] = await exists.json<Record<string, number | string>>();
  if (!row || Number(Object.values(row)[0]) !== 1) return new Set();
  const rs = await r.clickhouse.query({ query: `SELECT DISTINCT version, name FROM ${db}.schema_migrations`, format: 'JSONEachRow' });
  return new Set((await rs.json<{ version: number | string; name: string }>()).map((x) => `${Number(x.version)}_${x.name}`));
}

/** Every engine's migration list: the core ones, and those of registered domain modules after them. */
export interface MigrationLists {
  mysql: readonly KnexMigration[];
  postgres: readonly KnexMigration[];
  clickhouse: readonly ClickHouseMigration[];
}

export const CORE_MIGRATIONS: MigrationLists = { mysql: mysqlMigrations, postgres: postgresMigrations, clickhouse: clickhouseMigrations };

export async function migrationStatus(r: MigrationTargets, lists: MigrationLists = CORE_MIGRATIONS): Promise<MigrationState[]> {
  const mysqlNames = lists.mysql.map((m) => m.name);
  const shards = await Promise.all(r.mysql.shards.map(async (sh) => split('mysql', sh.database, mysqlNames, await knexApplied(sh.db))));
  const pg = split(
    'postgres',
    r.settings.pgDatabase,
    lists.postgres.map((m) => m.name),
    await knexApplied(r.pg, postgresRenamedMigrations),
  );
  const chNames = [...lists.clickhouse].sort((a, b) => a.version - b.version).map((m) => `${m.version}_${m.name}`);
  const ch = split('clickhouse', r.settings.clickhouseDatabase, chNames, await clickhouseApplied(r));
  return [...shards, pg, ch];
}
