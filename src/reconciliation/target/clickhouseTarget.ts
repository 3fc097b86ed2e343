// The TargetReader of a ClickHouse projection: the live table by default, or a rebuild's shadow
// table when one is named (the same queries validate a shadow before readers switch to it).
import type { ClickHouseClient } from '../../infra/clickhouse/fromClickHouse';
import type { Domain } from '../../publication/event';
import type { TargetReader } from '../ports';
import { projectionMappingOf } from './projectionMapping';
import { targetBuckets } from './sql/targetBuckets';
import { targetCounts } from './sql/targetCounts';
import { targetStates } from './sql/targetStates';

export function clickhouseTarget(ch: ClickHouseClient, database: string, domain: Domain): TargetReader {
  const m = projectionMappingOf(domain);
  return {
    domain,
    table: m.table,
    counts: (scope, table = m.table) => targetCounts(ch, database, table, m, scope),
    buckets: (scope, level, count, table = m.table) => targetBuckets(ch, database, table, m, scope, level, count),
    states: (scope, level, filter, table = m.table) => targetStates(ch, database, table, m, scope, level, filter),
  };
}
