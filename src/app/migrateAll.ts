import { fromClickHouse } from '../infra/clickhouse/fromClickHouse';
import { migrationLists } from './wiring/migrationLists';
import { erasableDomains, eventTopicSuffixes } from '../domains/registry';
import { clickhouseLayout } from '../infra/clickhouse/layout';
import { ensureTopics } from '../infra/kafka/fromKafka';
import { migrateClickHouse, migrateMysqlShards, migratePostgres, type MigrationReport } from '../infra/migrate';
import { asTransportError } from '../infra/tls';
import type { TlsEngine } from '../config/transport';
import type { Resources } from './resources';

/** Applies every pending migration on every engine and creates missing topics. Idempotent. */
export async function migrateAll(r: Resources): Promise<MigrationReport[]> {
  // The projection database may not exist yet, and the shared client names it as its default
  // database, so ClickHouse DDL runs on a short-lived client without a default database.
  const chAdmin = fromClickHouse(r.settings, { database: null });
  try {
    // A refused TLS handshake or SASL login stops start-up with a typed error naming the engine and the
    // settings to check, instead of the driver's text.
    const typed = <T>(p: Promise<T>, store: string, engine: TlsEngine) =>
      p.catch((err: unknown) => Promise.reject(asTransportError(err, store, engine)));
    const lists = migrationLists();
    const results = await Promise.allSettled([
      typed(migrateMysqlShards(r.mysql, [...lists.mysql]), 'mysql', 'mysql'),
      typed(migratePostgres(r.pg, r.settings.pgDatabase, [...lists.postgres]), 'postgres', 'postgres'),
      typed(
        migrateClickHouse(chAdmin, r.settings.clickhouseDatabase, clickhouseLayout(r.settings), [...lists.clickhouse]),
        'clickhouse',
        'clickhouse',
      ),
      // The personal topics are compacted, and altered to be on an upgraded deployment (topicConfigs.ts).
      typed(ensureTopics(r.kafka, r.settings, eventTopicSuffixes(), { compactedDomains: erasableDomains() }), 'kafka', 'kafka'),
    ]);
    const failed = results.find((x): x is PromiseRejectedResult => x.status === 'rejected');
    if (failed) throw failed.reason;
    const [my, pg, ch] = results as unknown as [
      PromiseFulfilledResult<MigrationReport[]>,
      PromiseFulfilledResult<MigrationReport>,
      PromiseFulfilledResult<MigrationReport>,
    ];
    return [...my.value, pg.value, ch.value];
  } finally {
    await chAdmin.close();
  }
}
