// Latest state of the given fitness results (one query for a whole DataLoader batch), within the
// caller's scope. Deleted, not yet projected and out-of-scope ids are all simply absent, so a caller
// cannot tell an id it may not see from one that does not exist. The IN list goes through the literal
// formatter; data_id is the ORDER BY key, so ClickHouse reads only the granules of these ids.
import type { FitnessScope } from '../policy';
import { list, uint } from '../../../infra/clickhouse/literal';
import type { ReadModelStore } from '../../contract/readModelStore';
import { toFitnessView, type FitnessView } from './fitnessView';
import { latestFitnessSql, type LatestFitnessRow } from './latestFitness';
import { fitnessScopeSql } from './fitnessScopeSql';

export async function selectFitnessByIds(
  store: ReadModelStore,
  database: string,
  scope: FitnessScope,
  dataIds: number[],
): Promise<FitnessView[]> {
  if (dataIds.length === 0) return [];
  const ids = `data_id IN ${list([...new Set(dataIds)], uint)}`;
  const s = fitnessScopeSql(database, scope, [ids]);
  const rows = await store.select<LatestFitnessRow>(
    'fitnessByIds',
    latestFitnessSql(database, { where: [ids, ...s.where], having: s.having }),
  );
  return rows.map(toFitnessView);
}
