// Every migration's down(), on every engine: from the latest schema (with rows in the tables), each
// migration is undone one at a time, newest first, until nothing but the migrator's own bookkeeping is
// left; then applied again one at a time. Each down must change the schema, and after each up the
// schema (columns with types, nullability and defaults; indexes; constraints; ClickHouse engines) must
// be exactly what it was at that step on the way down. MariaDB shard, PostgreSQL and ClickHouse.
// On the ClickHouse cluster (npm run test:cluster) the ClickHouse migrations run ON CLUSTER (Replicated
// local tables, Distributed tables over them) and the schema is read on every server: at every step
// each server must hold the same tables, so a DDL that reached only some servers fails. The MariaDB and
// PostgreSQL cases do not depend on ClickHouse and are skipped there (test:engines runs them).
import type { Knex } from 'knex';
import { clickhouseMigrations } from '../../migrations/clickhouse';
import { mysqlMigrations } from '../../migrations/mysql';
import { postgresMigrations } from '../../migrations/postgres';
import type { KnexMigration } from '../../migrations/types';
import { migrateAll } from '../app/migrateAll';
import { decidePlaceOrder } from '../domains/orders/decide';
import { insertOrder } from '../domains/orders/insertOrder';
import { insertFallback } from '../../test/support/kafkaFirst';
import { seedOutbox } from '../../test/support/outboxSeed';
import { onEveryServer } from '../../test/support/clusterServers';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';
import type { ClickHouseClient } from './clickhouse/fromClickHouse';
import { ident, str } from './clickhouse/literal';
import { clickhouseLayout } from './clickhouse/layout';
import { ListMigrationSource, migrateClickHouse, rollbackClickHouse } from './migrate';

type Schema = string[];

const notOnCluster = process.env.CLICKHOUSE_CLUSTER ? it.skip : it;

async function rowsOf(db: Knex, sql: string, bindings: string[]): Promise<Record<string, unknown>[]> {
  const r = (await db.raw(sql, bindings)) as unknown;
  return (Array.isArray(r) ? r[0] : (r as { rows: unknown[] }).rows) as Record<string, unknown>[];
}

const lines = (rows: Record<string, unknown>[]) => rows.map((r) => Object.values(r).map(String).join(' | ')).sort();

async function mysqlSchema(db: Knex, database: string): Promise<Schema> {
  const notKnex = "table_name NOT LIKE 'knex\\_%'";
  return [
    ...lines(
      await rowsOf(
        db,
        `SELECT table_name, column_name, column_type, is_nullable, column_default, extra FROM information_schema.columns WHERE table_schema = ? AND ${notKnex}`,
        [database],
      ),
    ),
    ...lines(
      await rowsOf(
        db,
        `SELECT table_name, index_name, seq_in_index, column_name, non_unique FROM information_schema.statistics WHERE table_schema = ? AND ${notKnex}`,
        [database],
      ),
    ),
  ];
}

async function postgresSchema(db: Knex): Promise<Schema> {
  const notKnex = "NOT LIKE 'knex\\_%'";
  return [
    ...lines(
      await rowsOf(
        db,
        `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
          WHERE table_schema = ? AND table_name ${notKnex}`,
        ['public'],
      ),
    ),
    ...lines(await rowsOf(db, `SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = ? AND tablename ${notKnex}`, ['public'])),
    ...lines(
      await rowsOf(
        db,
        `SELECT c.relname, k.conname, pg_get_constraintdef(k.oid)
           FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = ? AND c.relname ${notKnex}`,
        ['public'],
      ),
    ),
  ];
}

describe('every migration down and up again', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  /** Down one at a time to nothing, then up one at a time, comparing the schema at every step. */
  async function downAndUp(db: Knex, list: KnexMigration[], schema: () => Promise<Schema>): Promise<void> {
    const migrationSource = new ListMigrationSource(list);
    const levels: Schema[] = [];
    levels[list.length] = await schema();
    for (let k = list.length; k > 0; k--) {
      const [, undone] = (await db.migrate.down({ migrationSource })) as [number, string[]];
      expect(undone).toEqual([list[k - 1]!.name]);
      levels[k - 1] = await schema();
      expect({ migration: list[k - 1]!.name, changed: JSON.stringify(levels[k - 1]) !== JSON.stringify(levels[k]) }).toEqual({
        migration: list[k - 1]!.name,
        changed: true,
      });
    }
    expect(levels[0]).toEqual([]);
    for (let k = 1; k <= list.length; k++) {
      const [, done] = (await db.migrate.up({ migrationSource })) as [number, string[]];
      expect(done).toEqual([list[k - 1]!.name]);
      expect({ migration: list[k - 1]!.name, schema: await schema() }).toEqual({ migration: list[k - 1]!.name, schema: levels[k] });
    }
  }

  notOnCluster('on a MariaDB fitness shard, with rows in its tables', async () => {
    const shard = env.resources.mysql.shard(0);
    await seedOutbox(shard.db, env.resources.topics.events.fitness, 3);
    await insertFallback(env, shard.db, 'fitness', 1);
    await downAndUp(shard.db, mysqlMigrations, () => mysqlSchema(shard.db, shard.database));
  });

  notOnCluster('on PostgreSQL, with rows in its tables', async () => {
    const pg = env.resources.pg;
    await seedOutbox(pg, env.resources.topics.events.orders, 3);
    await insertFallback(env, pg, 'orders', 1);
    const d = decidePlaceOrder(
      { customerId: 'c', currency: 'EUR', idempotencyKey: 'down-up', items: [{ sku: 'S', quantity: 1, unitPrice: '1' }] },
      { orderId: '00000000-0000-4000-8000-000000000001', now: new Date(), limits: { maxItems: 10 }, changedBy: 'test-service' },
    );
    await insertOrder(pg, d.order, { owner: 'test-service', key: 'down-up' }, d.requestHash);
    await downAndUp(pg, postgresMigrations, () => postgresSchema(pg));
  });

  it('on ClickHouse, with rows in its tables', async () => {
    const ch = env.resources.clickhouse;
    const database = env.settings.clickhouseDatabase;
    const db = ident(database);
    const layout = clickhouseLayout(env.settings);
    const serverSchema = async (c: ClickHouseClient): Promise<Schema> => {
      const q = async (sql: string) => lines(await (await c.query({ query: sql, format: 'JSONEachRow' })).json<Record<string, unknown>>());
      return [
        ...(await q(`SELECT name, engine_full FROM system.tables WHERE database = ${str(database)} AND name != 'schema_migrations'`)),
        ...(await q(`SELECT table, name, type FROM system.columns WHERE database = ${str(database)} AND table != 'schema_migrations'`)),
      ];
    };
    // On a cluster: the schema every server holds, or each server's lines under its name where they differ.
    const schema = async (): Promise<Schema> => {
      if (!layout.cluster) return serverSchema(ch);
      const each = await onEveryServer(env.settings, serverSchema);
      if (each.every((e) => JSON.stringify(e.answer) === JSON.stringify(each[0]!.answer))) return each[0]!.answer;
      return each.flatMap((e) => e.answer.map((line) => `${e.server}: ${line}`));
    };
    await ch.command({ query: `INSERT INTO ${db}.fitness_results (data_id, version, kafka_partition, kafka_offset) VALUES (1, 1, 0, 0)` });
    const list = clickhouseMigrations;
    const levels: Schema[] = [];
    levels[list.length] = await schema();
    // The cluster's layout is the one migrated (a Replicated local table under each Distributed one).
    if (layout.cluster)
      expect(levels[list.length]).toContainEqual(expect.stringMatching(/^fitness_results_local \| ReplicatedReplacingMergeTree\(/));
    for (let k = list.length; k > 0; k--) {
      expect(await rollbackClickHouse(ch, database, layout)).toBe(`${list[k - 1]!.version}_${list[k - 1]!.name}`);
      levels[k - 1] = await schema();
      expect({ migration: list[k - 1]!.name, changed: JSON.stringify(levels[k - 1]) !== JSON.stringify(levels[k]) }).toEqual({
        migration: list[k - 1]!.name,
        changed: true,
      });
    }
    expect(levels[0]).toEqual([]);
    expect(await rollbackClickHouse(ch, database, layout)).toBeUndefined();
    for (let k = 1; k <= list.length; k++) {
      expect((await migrateClickHouse(ch, database, layout, list.slice(0, k))).applied).toEqual([
        `${list[k - 1]!.version}_${list[k - 1]!.name}`,
      ]);
      expect({ migration: list[k - 1]!.name, schema: await schema() }).toEqual({ migration: list[k - 1]!.name, schema: levels[k] });
    }
  });

  it('leaves every engine at the latest schema, with nothing left to apply', async () => {
    for (const r of await migrateAll(env.resources)) expect(r).toMatchObject({ applied: [] });
  });
});
