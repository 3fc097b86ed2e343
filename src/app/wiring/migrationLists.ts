// Every engine's migrations for this process: the core ones (migrations/{mysql,postgres,clickhouse}),
// then each registered domain module's own (its store tables, its projection table), so a domain
// added from outside src/ is migrated like a built-in one. ClickHouse versions share one numbering:
// a module's start at 1000 (the registry refuses a clash with another's).
import { domainModules } from '../../domains/registry';
import { CORE_MIGRATIONS, type MigrationLists } from '../../infra/migrationStatus';

export function migrationLists(): MigrationLists {
  const modules = domainModules();
  return {
    mysql: [...CORE_MIGRATIONS.mysql, ...modules.flatMap((m) => m.migrations?.mysql ?? [])],
    postgres: [...CORE_MIGRATIONS.postgres, ...modules.flatMap((m) => m.migrations?.postgres ?? [])],
    clickhouse: [...CORE_MIGRATIONS.clickhouse, ...modules.flatMap((m) => m.migrations?.clickhouse ?? [])],
  };
}
