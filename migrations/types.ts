// Migrations are listed in code (not discovered on disk) so the same list works under ts (tests,
// tsx) and compiled JavaScript (npm start) without extension games.
import type { Knex } from 'knex';
import type { TableSpec } from '../src/infra/clickhouse/layout';

export interface KnexMigration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/**
 * How a ClickHouse migration creates and drops tables: the same statement on one server, replicated
 * local tables plus a Distributed table ON CLUSTER on a cluster (src/infra/clickhouse/layout.ts).
 */
export interface ClickHouseTables {
  /** The target database, validated and backquoted, for statements written by hand. */
  db: string;
  create(spec: TableSpec): string[];
  drop(table: string): string[];
  /** ALTER ... ADD/DROP COLUMN; on a cluster the Distributed table is recreated with `shardingKey` (the table's own). */
  alter(table: string, change: string, shardingKey: string): string[];
}

export interface ClickHouseMigration {
  version: number;
  name: string;
  /** Statements run in order. */
  statements(t: ClickHouseTables): string[];
  /** Statements that undo `statements` (run by rollbackClickHouse, newest migration first). */
  down(t: ClickHouseTables): string[];
}
