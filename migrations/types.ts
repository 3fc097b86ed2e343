// Migrations are listed in code (not discovered on disk) so the same list works under ts (tests,
// tsx) and compiled JavaScript (npm start) without extension games.
import type { Knex } from 'knex';

export interface KnexMigration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

export interface ClickHouseMigration {
  version: number;
  name: string;
  /** Statements run in order; `db` is the (validated, backquoted) target database. */
  statements(db: string): string[];
}
