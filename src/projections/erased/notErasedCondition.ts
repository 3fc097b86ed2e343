// The guard as SQL, for writers that copy rows inside ClickHouse (a rebuild's INSERT ... SELECT from
// the live table into its shadow: reconciliation/rebuild/sql/copyRows.ts): a WHERE condition that keeps
// rows whose aggregate is not in erased_aggregates. It reads the table itself, not a writer's cache, so
// a copy running after the guard rows were written never copies an erased aggregate, whatever a cache
// holds. GLOBAL: on a cluster the subquery runs once on the initiator over the Distributed guard table
// (erased_aggregates is sharded by (domain, aggregate_id), not like the projection, so a shard-local
// subquery would miss rows); on one server GLOBAL NOT IN is plain NOT IN. The id is compared as text,
// the way the guard stores it. Valid on 18.16 and current releases.
import { ident, str } from '../../infra/clickhouse/literal';
import type { Domain } from '../../shared/domain';

export function notErasedCondition(database: string, domain: Domain, idColumn: string): string {
  return (
    `toString(${ident(idColumn)}) GLOBAL NOT IN ` +
    `(SELECT aggregate_id FROM ${ident(database)}.erased_aggregates WHERE domain = ${str(domain)})`
  );
}
