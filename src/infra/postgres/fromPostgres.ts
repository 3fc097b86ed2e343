// PostgreSQL adapter: one knex pool for the orders store. NUMERIC stays a string (exact decimals);
// timestamps are timestamptz and sessions run in UTC.
import knex, { type Knex } from 'knex';
import type { PostgresConnectionSettings, PostgresSettings } from '../../config/slices';
import { knexLog } from '../sql/knexLog';
import { postgresSsl } from '../tls';

export type { PostgresConnectionSettings };

export function postgresKnex(s: PostgresConnectionSettings, database: string, poolMax = s.dbPoolMax): Knex {
  return knex({
    client: 'pg',
    log: knexLog,
    // An error's message carries the SQL with placeholders, never the bound values (results, ids).
    compileSqlOnError: false,
    connection: {
      host: s.pgHost,
      port: s.pgPort,
      user: s.pgUser,
      password: s.pgPassword,
      database,
      connectionTimeoutMillis: 5000,
      options: '-c TimeZone=UTC',
      ssl: postgresSsl(s),
    },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10000,
  });
}

export function fromPostgres(s: PostgresSettings): Knex {
  return postgresKnex(s, s.pgDatabase);
}
