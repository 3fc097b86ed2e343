// SQL (ClickHouse DDL): the shadow table of a rebuild and the switch of readers to it.
//   createShadow  CREATE TABLE shadow AS live: same columns, engine, ORDER BY and PARTITION BY.
//   swapTables    EXCHANGE TABLES where the server supports it (current releases, Atomic databases:
//                 one atomic step); otherwise (18.16, Ordinary databases) one RENAME statement with
//                 two renames, live -> retired and shadow -> live. ClickHouse holds the tables' DDL
//                 locks for the whole statement and waits for running INSERTs to finish, so every
//                 insert lands in exactly one of the two tables; a reader resolving the name in the
//                 instant between the two renames may get UNKNOWN_TABLE and must retry.
//   dropTable     DROP TABLE IF EXISTS (shadow of a failed rebuild, retired table after verification).
// Names are generated (prefix + rebuild id) and pass through ident().
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident } from '../../../infra/clickhouse/literal';

const q = (db: string, t: string) => `${ident(db)}.${ident(t)}`;

export async function createShadow(ch: ClickHouseClient, database: string, live: string, shadow: string): Promise<void> {
  await ch.command({ query: `CREATE TABLE ${q(database, shadow)} AS ${q(database, live)}` });
}

/** Swaps; returns the name under which the previous live data now lives. */
export async function swapTables(ch: ClickHouseClient, database: string, live: string, shadow: string, retired: string): Promise<string> {
  try {
    await ch.command({ query: `EXCHANGE TABLES ${q(database, live)} AND ${q(database, shadow)}` });
    return shadow;
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    // 62 SYNTAX_ERROR (18.16), 48 NOT_IMPLEMENTED (Ordinary database): fall back to RENAME.
    if (code !== '62' && code !== '48' && !/Syntax error|not supported|NOT_IMPLEMENTED/i.test(String((err as Error).message))) throw err;
  }
  await ch.command({ query: `RENAME TABLE ${q(database, live)} TO ${q(database, retired)}, ${q(database, shadow)} TO ${q(database, live)}` });
  return retired;
}

export async function dropTable(ch: ClickHouseClient, database: string, table: string): Promise<void> {
  await ch.command({ query: `DROP TABLE IF EXISTS ${q(database, table)}` });
}
