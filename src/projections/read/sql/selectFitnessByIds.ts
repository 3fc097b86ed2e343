// Latest state of the given fitness results (one query for a whole DataLoader batch). Deleted and not
// yet projected ids are simply absent. The IN list goes through the literal formatter; data_id is the
// ORDER BY key, so ClickHouse reads only the granules of these ids.
import { list, uint } from '../../../infra/clickhouse/literal';
import type { ReadModelStore } from '../readModelStore';
import { toFitnessView, type FitnessView } from '../views';
import { latestFitnessSql, type LatestFitnessRow } from './latestFitness';

export async function selectFitnessByIds(store: ReadModelStore, database: string, dataIds: number[]): Promise<FitnessView[]> {
  if (dataIds.length === 0) return [];
  const rows = await store.select<LatestFitnessRow>(
    'fitnessByIds',
    latestFitnessSql(database, [`data_id IN ${list([...new Set(dataIds)], uint)}`]),
  );
  return rows.map(toFitnessView);
}
