// SQL building block: the physical rows of a projection table that carry each aggregate's highest
// version within a scope. Not argMax: when a defect wrote a second row with the same version but other
// content, both rows are kept here, so the comparison sees the disagreement instead of whichever row
// ClickHouse happens to pick (ReplacingMergeTree keeps an arbitrary one until it merges).
// No FINAL: merges are irrelevant to "highest version", and FINAL would hide equal-version duplicates.
// No alias shadows a column used inside an aggregate (18.16 resolves aliases inside aggregates).
import { ident } from '../../../infra/clickhouse/literal';
import type { ProjectionMapping } from '../projectionMapping';

export function latestRowsWhere(m: ProjectionMapping, database: string, table: string, where: string): string {
  const t = `${ident(database)}.${ident(table)}`;
  return `${where} AND (${m.idColumn}, version) IN (SELECT ${m.idColumn}, max(version) FROM ${t} WHERE ${where} GROUP BY ${m.idColumn})`;
}
