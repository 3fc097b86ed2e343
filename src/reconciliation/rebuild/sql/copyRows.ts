// SQL (ClickHouse): copying physical rows between a live table and a rebuild's shadow.
//   copyOutsideScope  every row outside the rebuilt scope, verbatim (INSERT ... SELECT *: same
//                     columns in the same order, CREATE TABLE AS guarantees it).
//   copyLateRows      rows ingested since `sinceMs` (minus a clock margin), except rows of the scope
//                     whose (id, version) the destination already holds: those versions come from the
//                     authoritative state, and a late copy of them could be the defective content.
//                     Newer versions of the scope (changes during the rebuild) are copied.
// Neither copies a row of an erased aggregate (projections/erased/notErasedCondition.ts): a rebuild
// running while an erasure deletes never copies the erased rows back into the shadow or the live table.
// Copies are idempotent: a row copied twice collapses (ReplacingMergeTree, latest-version reads).
// No locking: INSERT ... SELECT reads the source parts present when it starts.
import type { ClickHouseClient } from '../../../infra/clickhouse/fromClickHouse';
import { ident, uint } from '../../../infra/clickhouse/literal';
import { notErasedCondition } from '../../../projections/erased/notErasedCondition';
import type { Scope } from '../../scope';
import type { ProjectionMapping } from '../../target/projectionMapping';

const q = (db: string, t: string) => `${ident(db)}.${ident(t)}`;

async function insertSelect(ch: ClickHouseClient, query: string): Promise<void> {
  await ch.command({ query, clickhouse_settings: { wait_end_of_query: 1 } });
}

export function copyOutsideScope(
  ch: ClickHouseClient,
  database: string,
  from: string,
  to: string,
  m: ProjectionMapping,
  scope: Scope,
): Promise<void> {
  return insertSelect(
    ch,
    `INSERT INTO ${q(database, to)} SELECT * FROM ${q(database, from)}
     WHERE NOT (${m.scopeWhere(scope)}) AND ${notErasedCondition(database, scope.domain, m.idColumn)}`,
  );
}

export function copyLateRows(
  ch: ClickHouseClient,
  database: string,
  from: string,
  to: string,
  m: ProjectionMapping,
  scope: Scope,
  sinceMs: number,
): Promise<void> {
  const where = m.scopeWhere(scope);
  return insertSelect(
    ch,
    `INSERT INTO ${q(database, to)} SELECT * FROM ${q(database, from)}
     WHERE ingested_at_ms >= ${uint(Math.max(0, Math.floor(sinceMs)))}
       AND ${notErasedCondition(database, scope.domain, m.idColumn)}
       AND NOT ((${where}) AND (${m.idColumn}, version) IN (SELECT ${m.idColumn}, version FROM ${q(database, to)} WHERE ${where}))`,
  );
}
