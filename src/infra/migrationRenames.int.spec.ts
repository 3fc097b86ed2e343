// Renumbered migrations (three PostgreSQL migrations were all 004): a database created under the old
// names is migrated with the new list without anything running twice, and knex's record then holds
// the new names; on a database that never had the old names nothing changes.
import { postgresMigrations, postgresRenamedMigrations } from '../../migrations/postgres';
import { createDatabases, dropDatabases, testSettings } from '../../test/support/testEnv';
import { migratePostgres } from './migrate';
import { postgresKnex } from './postgres/fromPostgres';

describe('renumbered migrations', () => {
  const settings = testSettings();
  const db = postgresKnex(settings, settings.pgDatabase, 2);

  beforeAll(() => createDatabases(settings));
  afterAll(async () => {
    await db.destroy();
    await dropDatabases(settings);
  });

  const applied = async () => (await db('knex_migrations').orderBy('id').pluck('name')) as string[];

  it('are not run again on a database created with their old names, and are recorded under the new ones', async () => {
    const oldName = Object.fromEntries(Object.entries(postgresRenamedMigrations).map(([from, to]) => [to, from]));
    const asBefore = postgresMigrations.map((m) => ({ ...m, name: oldName[m.name] ?? m.name }));
    await migratePostgres(db, settings.pgDatabase, asBefore);
    expect(await applied()).toEqual(asBefore.map((m) => m.name));
    expect(await applied()).toContain('004_orders');

    const report = await migratePostgres(db, settings.pgDatabase);
    expect(report.applied).toEqual([]);
    expect(await applied()).toEqual(postgresMigrations.map((m) => m.name));
    expect(new Set(postgresMigrations.map((m) => m.name.slice(0, 3))).size).toBe(postgresMigrations.length); // every number once

    // Again: nothing to rename, nothing to run.
    expect((await migratePostgres(db, settings.pgDatabase)).applied).toEqual([]);
  });
});
