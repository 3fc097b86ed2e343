import { fromClickHouse } from '../infra/clickhouse/fromClickHouse';
import { ensureTopics } from '../infra/kafka/fromKafka';
import { migrateClickHouse, migrateMysqlShards, migratePostgres, type MigrationReport } from '../infra/migrate';
import type { Resources } from './resources';

/** Applies every pending migration on every engine and creates missing topics. Idempotent. */
export async function migrateAll(r: Resources): Promise<MigrationReport[]> {
  // The projection database may not exist yet, and the shared client names it as its default
  // database, so ClickHouse DDL runs on a short-lived client without a default database.
  const chAdmin = fromClickHouse(r.settings, { database: null });
  try {
    const results = await Promise.allSettled([
      migrateMysqlShards(r.mysql),
      migratePostgres(r.pg, r.settings.pgDatabase),
      migrateClickHouse(chAdmin, r.settings.clickhouseDatabase),
      ensureTopics(r.kafka, r.settings),
    ]);
    const failed = results.find((x): x is PromiseRejectedResult => x.status === 'rejected');
    if (failed) throw failed.reason;
    const [my, pg, ch] = results as unknown as [PromiseFulfilledResult<MigrationReport[]>, PromiseFulfilledResult<MigrationReport>, PromiseFulfilledResult<MigrationReport>];
    return [...my.value, pg.value, ch.value];
  } finally {
    await chAdmin.close();
  }
}
